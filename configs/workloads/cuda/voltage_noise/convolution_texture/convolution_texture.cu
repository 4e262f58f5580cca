// convolutionTexture (CUDA SDK) without texture units: the same 17-tap separable
// filter as convolution_separable, but each thread computes one output reading
// its 17 source pixels straight from global memory through the read-only cache
// (__ldg, as the SDK reads through the texture cache), with clamp-to-edge
// addressing and no shared memory. 16 x 12 threads per block as the SDK's.
constexpr int kRadius = 8;

static __device__ int clamp_to(int v, int size) { return min(max(v, 0), size - 1); }

extern "C" __global__ void convolution_rows_tex(float* __restrict__ dst, const float* __restrict__ src,
                                                const float* __restrict__ taps, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int j = -kRadius; j <= kRadius; ++j)
    sum = fmaf(__ldg(&taps[kRadius - j]), __ldg(&src[y * width + clamp_to(x + j, width)]), sum);
  dst[y * width + x] = sum;
}

extern "C" __global__ void convolution_columns_tex(float* __restrict__ dst, const float* __restrict__ src,
                                                   const float* __restrict__ taps, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int j = -kRadius; j <= kRadius; ++j)
    sum = fmaf(__ldg(&taps[kRadius - j]), __ldg(&src[clamp_to(y + j, height) * width + x]), sum);
  dst[y * width + x] = sum;
}
