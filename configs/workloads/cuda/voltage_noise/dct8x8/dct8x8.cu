// dct8x8 (CUDA SDK, the one-thread-per-coefficient kernels): JPEG-style 8 x 8
// block transform of an image, an 8 x 8 thread block per image block:
//   dct8x8_forward:  rows then columns through a shared tile (a barrier between);
//   dct8x8_quantize: coefficient = round(c / q) * q with the JPEG luminance table;
//   dct8x8_inverse:  the transpose transform back to pixels.
// `basis[u * 8 + x]` = c(u) cos((2x + 1) u pi / 16) (gen_inputs.py). Sums are explicit
// fmaf in ascending k, so the host repeats them bit for bit.
constexpr int kN = 8;

extern "C" __global__ void dct8x8_forward(float* __restrict__ dst, const float* __restrict__ src,
                                          const float* __restrict__ basis, int width) {
  __shared__ float tile[kN][kN];
  __shared__ float rows[kN][kN];
  int tx = threadIdx.x, ty = threadIdx.y;
  int offset = (blockIdx.y * kN + ty) * width + blockIdx.x * kN + tx;
  tile[ty][tx] = src[offset];
  __syncthreads();
  float sum = 0.0f;  // row transform: coefficient tx of row ty
  for (int k = 0; k < kN; ++k) sum = fmaf(__ldg(&basis[tx * kN + k]), tile[ty][k], sum);
  rows[ty][tx] = sum;
  __syncthreads();
  sum = 0.0f;  // column transform: coefficient ty of column tx
  for (int k = 0; k < kN; ++k) sum = fmaf(__ldg(&basis[ty * kN + k]), rows[k][tx], sum);
  dst[offset] = sum;
}

extern "C" __global__ void dct8x8_quantize(float* __restrict__ coefficients, const float* __restrict__ table,
                                           int width) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int offset = (blockIdx.y * kN + ty) * width + blockIdx.x * kN + tx;
  float q = __ldg(&table[ty * kN + tx]);
  coefficients[offset] = floorf(coefficients[offset] / q + 0.5f) * q;
}

extern "C" __global__ void dct8x8_inverse(float* __restrict__ dst, const float* __restrict__ src,
                                          const float* __restrict__ basis, int width) {
  __shared__ float tile[kN][kN];
  __shared__ float rows[kN][kN];
  int tx = threadIdx.x, ty = threadIdx.y;
  int offset = (blockIdx.y * kN + ty) * width + blockIdx.x * kN + tx;
  tile[ty][tx] = src[offset];
  __syncthreads();
  float sum = 0.0f;  // inverse row transform: pixel tx of row ty
  for (int k = 0; k < kN; ++k) sum = fmaf(__ldg(&basis[k * kN + tx]), tile[ty][k], sum);
  rows[ty][tx] = sum;
  __syncthreads();
  sum = 0.0f;  // inverse column transform: pixel ty of column tx
  for (int k = 0; k < kN; ++k) sum = fmaf(__ldg(&basis[k * kN + ty]), rows[k][tx], sum);
  dst[offset] = sum;
}
