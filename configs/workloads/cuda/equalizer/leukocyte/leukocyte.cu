// Rodinia-style leukocyte detection (the two detection kernels):
// GICOV_kernel   for each interior pixel and each of kCircles radii, samples the
//                image gradient at kPoints points of the circle around the pixel,
//                projects it on the circle's outward normal, and scores the
//                circle by the gradient inverse coefficient of variation
//                mean^2 / variance; the pixel keeps its best circle's score;
// dilate_kernel  grey-level dilation of the scores: each pixel takes the maximum
//                over a disk-shaped structuring element (offsets off the image
//                are skipped).
// Circle offsets and the normals' cos/sin come as tables (Rodinia keeps them in
// constant memory). Every product that feeds an addition goes through mul() (an
// inline mul.rn.f32, which clang cannot contract into an fma), so the host
// repeats the arithmetic bit for bit.
constexpr int kCircles = 7, kPoints = 150;

static __device__ __forceinline__ float mul(float a, float b) {
  float product;
  asm("mul.rn.f32 %0, %1, %2;" : "=f"(product) : "f"(a), "f"(b));
  return product;
}

// The gradient along circle c's normal at its point p, around pixel (x, y).
static __device__ float normal_gradient(const float* __restrict__ grad_x, const float* __restrict__ grad_y,
                                        const int* __restrict__ tx, const int* __restrict__ ty,
                                        const float* __restrict__ cosines, const float* __restrict__ sines, int width,
                                        int x, int y, int c, int p) {
  const int at = (y + ty[c * kPoints + p]) * width + x + tx[c * kPoints + p];
  return mul(grad_x[at], cosines[p]) + mul(grad_y[at], sines[p]);
}

extern "C" __global__ void GICOV_kernel(const float* __restrict__ grad_x, const float* __restrict__ grad_y,
                                        const int* __restrict__ tx, const int* __restrict__ ty,
                                        const float* __restrict__ cosines, const float* __restrict__ sines,
                                        float* __restrict__ gicov, int width, int height, int margin) {
  const int inner_width = width - 2 * margin;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= inner_width * (height - 2 * margin)) return;
  const int x = margin + i % inner_width, y = margin + i / inner_width;
  float best = 0.0f;
  for (int c = 0; c < kCircles; ++c) {
    float sum = 0.0f;
    for (int p = 0; p < kPoints; ++p) sum += normal_gradient(grad_x, grad_y, tx, ty, cosines, sines, width, x, y, c, p);
    const float mean = sum / float(kPoints);
    float spread = 0.0f;
    for (int p = 0; p < kPoints; ++p) {
      const float d = normal_gradient(grad_x, grad_y, tx, ty, cosines, sines, width, x, y, c, p) - mean;
      spread += mul(d, d);
    }
    const float variance = spread / float(kPoints - 1);
    const float score = mean * mean / variance;
    if (score > best) best = score;
  }
  gicov[y * width + x] = best;
}

extern "C" __global__ void dilate_kernel(const float* __restrict__ in, const int* __restrict__ disk, int disk_size,
                                         float* __restrict__ out, int width, int height) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width * height) return;
  const int x = i % width, y = i / width;
  float best = 0.0f;
  for (int k = 0; k < disk_size; ++k) {
    const int nx = x + disk[2 * k + 1], ny = y + disk[2 * k];
    if (nx < 0 || nx >= width || ny < 0 || ny >= height) continue;
    best = fmaxf(best, in[ny * width + nx]);
  }
  out[i] = best;
}
