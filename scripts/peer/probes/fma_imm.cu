// Issue-rate probe (issue 27): four independent FMA chains per thread whose other
// operands are immediates, so each FMA reads one register. fma_loop's shape with
// a and b as literals.
extern "C" __global__ void fma_imm(float* __restrict__ out, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float seed = float(i);
  float x0 = seed * 1e-6f;
  float x1 = fmaf(seed, 1e-6f, 0.25f);
  float x2 = fmaf(seed, 1e-6f, 0.5f);
  float x3 = fmaf(seed, 1e-6f, 0.75f);
  for (int k = 0; k < iterations; ++k) {
    x0 = fmaf(x0, 0.9990234375f, 0.0009765625f);
    x1 = fmaf(x1, 0.9990234375f, 0.0009765625f);
    x2 = fmaf(x2, 0.9990234375f, 0.0009765625f);
    x3 = fmaf(x3, 0.9990234375f, 0.0009765625f);
  }
  out[i] = (x0 + x1) + (x2 + x3);
}
