// SRAD (Rodinia srad_v1): speckle-reducing anisotropic diffusion of an image,
// per iteration five launches:
//   srad_prepare: per pixel, the value and its square (for the ROI statistics);
//   srad_reduce:  block tree sums of both (twice: pixels -> block partials -> 1);
//   srad_coeff:   q0^2 from the sums, then per pixel the four directional
//                 derivatives (clamped at the borders) and the diffusion coefficient;
//   srad_update:  image += lambda / 4 * divergence of c * gradient.
// Rodinia's extract/compress (exp/log scaling before and after) are left out.
// Every multiply-add is an explicit fmaf (clang would contract them anyway, in
// places the host could not predict), so the host repeats the computation bit for bit.

constexpr int kReduceThreads = 256;

extern "C" __global__ void srad_prepare(const float* __restrict__ image, float* __restrict__ sums,
                                        float* __restrict__ squares, int pixels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  float v = image[i];
  sums[i] = v;
  squares[i] = v * v;
}

// Each block sums kReduceThreads * 2 consecutive values of both arrays into slot blockIdx.x.
extern "C" __global__ void srad_reduce(float* __restrict__ sums, float* __restrict__ squares, int count) {
  __shared__ float s[kReduceThreads], q[kReduceThreads];
  int t = threadIdx.x, i = blockIdx.x * kReduceThreads * 2 + t;
  float a = 0.0f, b = 0.0f;
  if (i < count) a = sums[i], b = squares[i];
  if (i + kReduceThreads < count) a += sums[i + kReduceThreads], b += squares[i + kReduceThreads];
  s[t] = a;
  q[t] = b;
  __syncthreads();
  for (int half = kReduceThreads / 2; half > 0; half >>= 1) {
    if (t < half) {
      s[t] += s[t + half];
      q[t] += q[t + half];
    }
    __syncthreads();
  }
  if (t == 0) {
    sums[blockIdx.x] = s[0];
    squares[blockIdx.x] = q[0];
  }
}

extern "C" __global__ void srad_coeff(const float* __restrict__ image, const float* __restrict__ sums,
                                      const float* __restrict__ squares, float* __restrict__ dn, float* __restrict__ ds,
                                      float* __restrict__ dw, float* __restrict__ de, float* __restrict__ c, int rows,
                                      int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  float pixels = float(rows * cols);
  float mean = sums[0] / pixels;
  float variance = fmaf(-mean, mean, squares[0] / pixels);
  float q0sqr = variance / (mean * mean);
  int r = i / cols, col = i % cols;
  float centre = image[i];
  float n = image[max(r - 1, 0) * cols + col] - centre, s = image[min(r + 1, rows - 1) * cols + col] - centre;
  float w = image[r * cols + max(col - 1, 0)] - centre, e = image[r * cols + min(col + 1, cols - 1)] - centre;
  float g2 = fmaf(e, e, fmaf(w, w, fmaf(s, s, n * n))) / (centre * centre);
  float l = (n + s + w + e) / centre;
  float num = fmaf(-0.0625f, l * l, 0.5f * g2);
  float den = fmaf(0.25f, l, 1.0f);
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float coefficient = 1.0f / (1.0f + den);
  dn[i] = n;
  ds[i] = s;
  dw[i] = w;
  de[i] = e;
  c[i] = coefficient < 0.0f ? 0.0f : (coefficient > 1.0f ? 1.0f : coefficient);  // saturate
}

extern "C" __global__ void srad_update(float* __restrict__ image, const float* __restrict__ dn,
                                       const float* __restrict__ ds, const float* __restrict__ dw,
                                       const float* __restrict__ de, const float* __restrict__ c, int rows, int cols,
                                       float lambda) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  int r = i / cols, col = i % cols;
  float south = c[min(r + 1, rows - 1) * cols + col], east = c[r * cols + min(col + 1, cols - 1)];
  float divergence = fmaf(east, de[i], fmaf(c[i], dw[i], fmaf(south, ds[i], c[i] * dn[i])));
  image[i] = fmaf(0.25f * lambda, divergence, image[i]);
}
