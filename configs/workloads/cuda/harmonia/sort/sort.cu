// Sort (SHOC): least-significant-digit radix sort of 32-bit keys, 4 bits per
// pass, three kernels per pass as SHOC's reduce / top scan / bottom scan:
//   radix_count:   each block counts the digits of its 1024-key tile;
//   radix_scan:    one block turns the digit x block counts into output offsets
//                  (exclusive scan in digit-major order);
//   radix_scatter: each block ranks its keys stably (warp ballots per digit) and
//                  writes them to their offsets.
constexpr int kThreads = 256;
constexpr int kTile = 1024;  // keys per block: kTile / kThreads rounds
constexpr int kDigits = 16;
constexpr int kWarps = kThreads / 32;

static __device__ unsigned digit_of(unsigned key, int shift) { return (key >> shift) & (kDigits - 1); }

extern "C" __global__ void radix_count(const unsigned* __restrict__ keys, unsigned* __restrict__ counts, int shift) {
  __shared__ unsigned histogram[kDigits];
  int t = threadIdx.x;
  if (t < kDigits) histogram[t] = 0;
  __syncthreads();
  for (int k = t; k < kTile; k += kThreads) atomicAdd(&histogram[digit_of(keys[blockIdx.x * kTile + k], shift)], 1u);
  __syncthreads();
  if (t < kDigits) counts[t * gridDim.x + blockIdx.x] = histogram[t];
}

// One block of kThreads: each thread scans a contiguous run of the counts, then
// the run totals are scanned in shared memory.
extern "C" __global__ void radix_scan(unsigned* __restrict__ counts, int entries) {
  __shared__ unsigned totals[kThreads];
  int t = threadIdx.x, run = (entries + kThreads - 1) / kThreads;
  int begin = min(t * run, entries), end = min(begin + run, entries);
  unsigned total = 0;
  for (int e = begin; e < end; ++e) total += counts[e];
  totals[t] = total;
  __syncthreads();
  for (int offset = 1; offset < kThreads; offset <<= 1) {  // Hillis-Steele inclusive scan
    unsigned v = t >= offset ? totals[t - offset] : 0u;
    __syncthreads();
    totals[t] += v;
    __syncthreads();
  }
  unsigned running = totals[t] - total;  // exclusive
  for (int e = begin; e < end; ++e) {
    unsigned c = counts[e];
    counts[e] = running;
    running += c;
  }
}

extern "C" __global__ void radix_scatter(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                         const unsigned* __restrict__ offsets, int shift) {
  __shared__ unsigned base[kDigits];
  __shared__ unsigned warp_counts[kWarps][kDigits];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (t < kDigits) base[t] = offsets[t * gridDim.x + blockIdx.x];
  __syncthreads();
  unsigned lanes_before = (1u << lane) - 1u;
  for (int round = 0; round < kTile / kThreads; ++round) {
    unsigned key = in[blockIdx.x * kTile + round * kThreads + t];
    unsigned digit = digit_of(key, shift), rank = 0;
    for (unsigned d = 0; d < kDigits; ++d) {
      unsigned same = __ballot_sync(0xffffffffu, digit == d);
      if (digit == d) rank = __popc(same & lanes_before);
      if (lane == int(d)) warp_counts[warp][d] = __popc(same);
    }
    __syncthreads();
    unsigned position = base[digit] + rank;
    for (int w = 0; w < warp; ++w) position += warp_counts[w][digit];
    out[position] = key;
    __syncthreads();
    if (t < kDigits) {
      unsigned round_total = 0;
      for (int w = 0; w < kWarps; ++w) round_total += warp_counts[w][t];
      base[t] += round_total;
    }
    __syncthreads();
  }
}
