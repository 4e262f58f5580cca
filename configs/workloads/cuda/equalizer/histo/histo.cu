// Parboil-style saturating histogram in four kernels (Parboil's roles; the
// details are ours):
// histo_prescan       min, max and sum of the input (a block tree, then atomics),
//                     so the next kernels can place a dense window on the data;
// histo_intermediates maps each value to its slot: inside the window (centred on
//                     the mean, kWindow bins) its offset, else the bin with the top
//                     bit set;
// histo_main          counts window slots in a per-block shared-memory histogram
//                     (shared atomics, then one global add per non-empty bin) and
//                     the rest straight into global memory (global atomics);
// histo_final         saturates the counts to 8 bits (Parboil's output type) and
//                     clears them and the statistics for the next iteration.
constexpr int kWindow = 4096;                 // bins in the shared window (16 KB: 3 blocks per SM)
constexpr unsigned kOutside = 0x80000000u;    // slot flag: bin outside the window
constexpr int kScanThreads = 512;

extern "C" __global__ void histo_prescan(const unsigned* __restrict__ input, unsigned* __restrict__ lowest,
                                         unsigned* __restrict__ highest, unsigned long long* __restrict__ total, int n) {
  __shared__ unsigned lo[kScanThreads], hi[kScanThreads];
  const int t = threadIdx.x;
  unsigned my_lo = 0xffffffffu, my_hi = 0;
  unsigned long long my_sum = 0;
  for (int i = blockIdx.x * kScanThreads + t; i < n; i += gridDim.x * kScanThreads) {
    const unsigned v = input[i];
    my_lo = min(my_lo, v);
    my_hi = max(my_hi, v);
    my_sum += v;
  }
  lo[t] = my_lo;
  hi[t] = my_hi;
  __syncthreads();
  for (int half = kScanThreads / 2; half > 0; half /= 2) {
    if (t < half) {
      lo[t] = min(lo[t], lo[t + half]);
      hi[t] = max(hi[t], hi[t + half]);
    }
    __syncthreads();
  }
  if (t == 0) {
    atomicMin(lowest, lo[0]);
    atomicMax(highest, hi[0]);
  }
  atomicAdd(total, my_sum);
}

// The window's first bin: centred on the mean, inside [min, max].
static __device__ unsigned window_start(unsigned lowest, unsigned long long total, int n) {
  const unsigned mean = unsigned(total / unsigned(n));
  return mean > lowest + kWindow / 2 ? mean - kWindow / 2 : lowest;
}

extern "C" __global__ void histo_intermediates(const unsigned* __restrict__ input, const unsigned* __restrict__ lowest,
                                               const unsigned long long* __restrict__ total,
                                               unsigned* __restrict__ slots, int n) {
  const unsigned start = window_start(*lowest, *total, n);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned v = input[i];
    slots[i] = v - start < unsigned(kWindow) ? v - start : (v | kOutside);
  }
}

extern "C" __global__ void histo_main(const unsigned* __restrict__ slots, const unsigned* __restrict__ lowest,
                                      const unsigned long long* __restrict__ total, unsigned* __restrict__ counts,
                                      int n) {
  __shared__ unsigned window[kWindow];
  for (int b = threadIdx.x; b < kWindow; b += blockDim.x) window[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned s = slots[i];
    if (s & kOutside)
      atomicAdd(&counts[s & ~kOutside], 1u);
    else
      atomicAdd(&window[s], 1u);
  }
  __syncthreads();
  const unsigned start = window_start(*lowest, *total, n);
  for (int b = threadIdx.x; b < kWindow; b += blockDim.x)
    if (window[b] != 0) atomicAdd(&counts[start + b], window[b]);
}

extern "C" __global__ void histo_final(unsigned* __restrict__ counts, unsigned char* __restrict__ histo,
                                       unsigned* __restrict__ lowest, unsigned* __restrict__ highest,
                                       unsigned long long* __restrict__ total, int bins) {
  for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < bins; b += gridDim.x * blockDim.x) {
    histo[b] = (unsigned char)min(counts[b], 255u);
    counts[b] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *lowest = 0xffffffffu;
    *highest = 0;
    *total = 0;
  }
}
