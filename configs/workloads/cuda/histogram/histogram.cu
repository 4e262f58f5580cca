// 256-bin byte histogram: each block counts into shared memory with shared
// atomics, then adds its non-zero bins to the global histogram with global atomics.
extern "C" __global__ void histogram256(const unsigned char* __restrict__ data, unsigned* __restrict__ bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
