// MUMmerGPU-like string matching: for each query read (a thread per read) and each
// of its match starts, the longest prefix of the read's suffix that occurs in the
// reference, found by walking an index of the reference's suffixes. MUMmerGPU
// walks a suffix tree in texture memory; here the index is a suffix array searched
// by binary search: the same dependent, data-driven loads (the first levels shared
// by every thread, the last ones scattered), read through L1.
// best_length/best_position[read * starts + s]: the match for start s * stride.
static __device__ int common_prefix(const unsigned char* __restrict__ ref, int ref_length, int at,
                                    const unsigned char* __restrict__ pattern, int length) {
  int k = 0;
  while (k < length && at + k < ref_length && ref[at + k] == pattern[k]) ++k;
  return k;
}

extern "C" __global__ void mummer_match(const unsigned char* __restrict__ ref, const int* __restrict__ suffixes,
                                        int ref_length, const unsigned char* __restrict__ reads, int reads_count,
                                        int read_length, int starts, int stride, int* __restrict__ best_length,
                                        int* __restrict__ best_position) {
  const int read = blockIdx.x * blockDim.x + threadIdx.x;
  if (read >= reads_count) return;
  for (int s = 0; s < starts; ++s) {
    const unsigned char* pattern = reads + read * read_length + s * stride;
    const int length = read_length - s * stride;
    int lo = 0, hi = ref_length;  // the first suffix not below the pattern
    while (lo < hi) {
      const int mid = (lo + hi) / 2, at = suffixes[mid];
      const int k = common_prefix(ref, ref_length, at, pattern, length);
      const bool below = k < length && (at + k == ref_length || ref[at + k] < pattern[k]);
      if (below)
        lo = mid + 1;
      else
        hi = mid;
    }
    int length_found = 0, position = -1;
    if (lo < ref_length) {
      length_found = common_prefix(ref, ref_length, suffixes[lo], pattern, length);
      position = suffixes[lo];
    }
    if (lo > 0) {
      const int k = common_prefix(ref, ref_length, suffixes[lo - 1], pattern, length);
      if (k > length_found) length_found = k, position = suffixes[lo - 1];
    }
    best_length[read * starts + s] = length_found;
    best_position[read * starts + s] = position;
  }
}
