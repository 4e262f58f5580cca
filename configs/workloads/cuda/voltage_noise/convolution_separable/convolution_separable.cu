// convolutionSeparable (CUDA SDK): a 17-tap separable filter (radius 8) on a
// W x H image, zero outside the image, in two kernels that stage tiles in shared
// memory with a halo of one 16-wide (rows) / 8-high (columns) step each side:
//   convolution_rows:    16 x 4 threads, 8 outputs per thread along x;
//   convolution_columns: 16 x 8 threads, 8 outputs per thread along y.
// Taps are summed as explicit fmaf from -R to +R, so the host repeats them bit for bit.
constexpr int kRadius = 8;
constexpr int kRowsX = 16, kRowsY = 4, kColsX = 16, kColsY = 8;
constexpr int kSteps = 8;  // outputs per thread
constexpr int kHalo = 1;   // halo steps each side

extern "C" __global__ void convolution_rows(float* __restrict__ dst, const float* __restrict__ src,
                                            const float* __restrict__ taps, int width, int height) {
  __shared__ float tile[kRowsY][(kSteps + 2 * kHalo) * kRowsX];
  int x0 = (blockIdx.x * kSteps - kHalo) * kRowsX + threadIdx.x, y = blockIdx.y * kRowsY + threadIdx.y;
  const float* row = src + y * width;
  for (int s = 0; s < kSteps + 2 * kHalo; ++s) {
    int x = x0 + s * kRowsX;
    tile[threadIdx.y][s * kRowsX + threadIdx.x] = (x >= 0 && x < width) ? row[x] : 0.0f;
  }
  __syncthreads();
  for (int s = kHalo; s < kHalo + kSteps; ++s) {
    float sum = 0.0f;
    for (int j = -kRadius; j <= kRadius; ++j)
      sum = fmaf(__ldg(&taps[kRadius - j]), tile[threadIdx.y][s * kRowsX + threadIdx.x + j], sum);
    dst[y * width + x0 + s * kRowsX] = sum;
  }
}

extern "C" __global__ void convolution_columns(float* __restrict__ dst, const float* __restrict__ src,
                                               const float* __restrict__ taps, int width, int height) {
  __shared__ float tile[kColsX][(kSteps + 2 * kHalo) * kColsY + 1];  // +1: no bank conflicts down a column
  int x = blockIdx.x * kColsX + threadIdx.x, y0 = (blockIdx.y * kSteps - kHalo) * kColsY + threadIdx.y;
  for (int s = 0; s < kSteps + 2 * kHalo; ++s) {
    int y = y0 + s * kColsY;
    tile[threadIdx.x][s * kColsY + threadIdx.y] = (y >= 0 && y < height) ? src[y * width + x] : 0.0f;
  }
  __syncthreads();
  for (int s = kHalo; s < kHalo + kSteps; ++s) {
    float sum = 0.0f;
    for (int j = -kRadius; j <= kRadius; ++j)
      sum = fmaf(__ldg(&taps[kRadius - j]), tile[threadIdx.x][s * kColsY + threadIdx.y + j], sum);
    dst[(y0 + s * kColsY) * width + x] = sum;
  }
}
