// Rodinia-style particle filter (the float CUDA version's four kernels per video
// frame), tracking a bright disk through a noisy video:
// likelihood_kernel         moves each particle from its resampled position with
//                           random noise (a per-particle LCG, Box-Muller), reads the
//                           frame under a disk around it, weight (1/N) * exp(mean
//                           log-likelihood), and a block partial sum of the weights;
// sum_kernel                one thread totals the block sums;
// normalize_weights_kernel  normalises the weights; one thread builds the CDF
//                           (the sequential phase), draws u0, and every particle
//                           gets u = u0 + i / N;
// find_index_kernel         each particle scans the CDF for the first entry >= u
//                           and takes that particle's position (resampling).
// Frame k reads positions from slice k - 1 of xj/yj and writes slice k (Rodinia
// overwrites one array; the slices keep every frame's result).
constexpr unsigned kA = 1103515245u, kC = 12345u, kM = 2147483647u;  // Rodinia's LCG
constexpr float kPi = 3.14159265358979f;
constexpr int kThreads = 512;

static __device__ float randu(unsigned* seed, int i) {
  seed[i] = (kA * seed[i] + kC) % kM;
  return float(seed[i]) / float(kM);
}

// Box-Muller; cos(2 pi v) evaluated as -cos(2 pi v - pi) to keep cos.approx's
// argument in [-pi, pi], where its error is specified.
static __device__ float randn(unsigned* seed, int i) {
  const float u = randu(seed, i), v = randu(seed, i);
  const float cosine = -cosf(2.0f * kPi * v - kPi);
  const float rt = -2.0f * logf(u);
  return sqrtf(rt) * cosine;
}

extern "C" __global__ void likelihood_kernel(float* __restrict__ array_x, float* __restrict__ array_y,
                                             const float* __restrict__ xj, const float* __restrict__ yj,
                                             const int* __restrict__ objxy, int count_ones, int* __restrict__ ind,
                                             float* __restrict__ likelihood, const unsigned char* __restrict__ video,
                                             float* __restrict__ weights, unsigned* __restrict__ seed, int n,
                                             int frame, int size_x, int size_y, int frames,
                                             float* __restrict__ partial_sums) {
  __shared__ float block_weights[kThreads];
  const int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  float weight = 0.0f;
  if (i < n) {
    const float x = xj[(frame - 1) * n + i] + 1.0f + 5.0f * randn(seed, i);
    const float y = yj[(frame - 1) * n + i] - 2.0f + 2.0f * randn(seed, i);
    array_x[i] = x;
    array_y[i] = y;
    const int rx = int(floorf(x + 0.5f)), ry = int(floorf(y + 0.5f));
    float sum = 0.0f;
    for (int k = 0; k < count_ones; ++k) {
      int index = (rx + objxy[2 * k + 1]) * size_y * frames + (ry + objxy[2 * k]) * frames + frame;
      if (index < 0) index = -index;  // Rodinia's abs()
      if (index >= size_x * size_y * frames) index = 0;
      ind[i * count_ones + k] = index;
      const float pixel = float(video[index]);
      sum += ((pixel - 100.0f) * (pixel - 100.0f) - (pixel - 228.0f) * (pixel - 228.0f)) / 50.0f;
    }
    likelihood[i] = sum / float(count_ones);
    weight = (1.0f / float(n)) * expf(likelihood[i]);
    weights[i] = weight;
  }
  block_weights[t] = weight;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (t < half) block_weights[t] += block_weights[t + half];
    __syncthreads();
  }
  if (t == 0) partial_sums[blockIdx.x] = block_weights[0];
}

extern "C" __global__ void sum_kernel(float* __restrict__ partial_sums, int blocks) {
  if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
  float sum = 0.0f;
  for (int b = 0; b < blocks; ++b) sum += partial_sums[b];
  partial_sums[0] = sum;
}

extern "C" __global__ void normalize_weights_kernel(float* __restrict__ weights, int n,
                                                    const float* __restrict__ partial_sums, float* __restrict__ cdf,
                                                    float* __restrict__ u, unsigned* __restrict__ seed) {
  __shared__ float u0;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x != 0) return;  // one block: the CDF is built by one thread
  for (int j = threadIdx.x; j < n; j += blockDim.x) weights[j] = weights[j] / partial_sums[0];
  __syncthreads();
  if (i == 0) {
    float running = 0.0f;
    for (int j = 0; j < n; ++j) {
      running += weights[j];
      cdf[j] = running;
    }
    u0 = (1.0f / float(n)) * randu(seed, 0);
  }
  __syncthreads();
  for (int j = threadIdx.x; j < n; j += blockDim.x) u[j] = u0 + float(j) / float(n);
}

extern "C" __global__ void find_index_kernel(const float* __restrict__ array_x, const float* __restrict__ array_y,
                                             const float* __restrict__ cdf, const float* __restrict__ u,
                                             float* __restrict__ xj, float* __restrict__ yj, int n, int frame) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int index = n - 1;
  for (int x = 0; x < n; ++x)
    if (cdf[x] >= u[i]) {
      index = x;
      break;
    }
  xj[frame * n + i] = array_x[index];
  yj[frame * n + i] = array_y[index];
}
