// Sum of n floats: each block reduces a grid-stride share (per-thread sums, a
// shuffle tree per warp, the warps' sums through shared memory) to out[blockIdx.x].
// Launched twice: n values -> one partial per block -> one total (a single block).
extern "C" __global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float warp_sums[32];
  float sum = 0.0f;
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) sum += in[i];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = (lane < int(blockDim.x >> 5)) ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) out[blockIdx.x] = sum;
  }
}
