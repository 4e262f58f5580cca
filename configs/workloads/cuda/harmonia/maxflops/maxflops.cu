// MaxFlops (SHOC): peak single-precision rate. Each thread keeps eight
// independent chains in registers (so a warp always has an FMA ready) and
// touches memory once to load and once to store. Two kernels as SHOC's MAdd and
// MulMAdd families, each launched repeatedly on the same data (in place).
constexpr int kChains = 8;

extern "C" __global__ void madd(float* __restrict__ data, int iterations, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x[kChains];
  float seed = data[i];
  for (int c = 0; c < kChains; ++c) x[c] = seed + float(c) * 0.125f;
  for (int k = 0; k < iterations; ++k)
    for (int c = 0; c < kChains; ++c) x[c] = fmaf(x[c], a, b);  // explicit, so the host repeats it bit for bit
  float sum = 0.0f;
  for (int c = 0; c < kChains; ++c) sum += x[c];
  data[i] = sum * 0.125f;
}

extern "C" __global__ void mul_madd(float* __restrict__ data, int iterations, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x[kChains];
  float seed = data[i];
  for (int c = 0; c < kChains; ++c) x[c] = seed - float(c) * 0.125f;
  for (int k = 0; k < iterations; ++k)
    for (int c = 0; c < kChains; ++c) x[c] = fmaf(x[c] * a, a, b);  // a multiply and an FMA per step
  float sum = 0.0f;
  for (int c = 0; c < kChains; ++c) sum += x[c];
  data[i] = sum * 0.125f;
}
