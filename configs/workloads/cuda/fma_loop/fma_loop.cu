// Compute-bound: four independent FMA chains per thread (so the FMA latency is
// hidden within one warp), no memory traffic until the single store.
extern "C" __global__ void fma_loop(float* __restrict__ out, int iterations, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float seed = float(i);
  // fmaf spelled out everywhere so the host reference can repeat the exact operations.
  float x0 = seed * 1e-6f;
  float x1 = fmaf(seed, 1e-6f, 0.25f);
  float x2 = fmaf(seed, 1e-6f, 0.5f);
  float x3 = fmaf(seed, 1e-6f, 0.75f);
  for (int k = 0; k < iterations; ++k) {
    x0 = fmaf(x0, a, b);
    x1 = fmaf(x1, a, b);
    x2 = fmaf(x2, a, b);
    x3 = fmaf(x3, a, b);
  }
  out[i] = (x0 + x1) + (x2 + x3);
}
