// The weighting step of a particle filter localising a robot in a square map
// from range measurements to known landmarks:
// pf_likelihood  weight = exp(log-likelihood): Gaussian for ranges within 3 of
//                the expected one, a heavy log tail beyond (data-dependent
//                branches per landmark), zero for particles off the map
// pf_sum         the weights' total (block shuffle reduction + a float atomic)
// pf_normalize   weight /= total
extern "C" __global__ void pf_likelihood(const float* __restrict__ px, const float* __restrict__ py,
                                         const float* __restrict__ landmarks, const float* __restrict__ ranges,
                                         float* __restrict__ weight, int n, int n_landmarks, float map_size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = px[i], y = py[i];
  if (x < 0.0f || y < 0.0f || x > map_size || y > map_size) {
    weight[i] = 0.0f;
    return;
  }
  float log_likelihood = 0.0f;
  for (int j = 0; j < n_landmarks; ++j) {
    float dx = x - landmarks[2 * j], dy = y - landmarks[2 * j + 1];
    // fmaf spelled out: the host repeats the distance bit for bit, so both take the same branches.
    float error = sqrtf(fmaf(dx, dx, dy * dy)) - ranges[j];
    if (fabsf(error) < 3.0f)
      log_likelihood = fmaf(-0.125f * error, error, log_likelihood);  // sigma = 2
    else
      log_likelihood -= 1.0f + 0.5f * __logf(fabsf(error));
  }
  weight[i] = __expf(log_likelihood);
}

extern "C" __global__ void pf_sum(const float* __restrict__ weight, float* __restrict__ total, int n) {
  __shared__ float warp_sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = i < n ? weight[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float block_sum = 0.0f;
    for (int w = 0; w < int(blockDim.x >> 5); ++w) block_sum += warp_sums[w];
    atomicAdd(total, block_sum);
  }
}

extern "C" __global__ void pf_normalize(float* __restrict__ weight, const float* __restrict__ total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) weight[i] = weight[i] / *total;
}
