// Parboil-style lattice-Boltzmann (D3Q19, BGK single relaxation time) on a periodic
// NX x NY x NZ lattice with NX = blockDim.x: each thread reads its cell's 19
// distributions (structure of arrays: f[direction * cells + cell]), collides them
// towards the local equilibrium and pushes each one to the neighbouring cell in
// its direction in the other buffer. Obstacle cells (flag == 0) bounce back:
// each distribution leaves in the opposite direction instead of colliding (so
// every destination slot has exactly one writer, as in Parboil's push scheme).
// The direction tables are constexpr and every loop over them unrolled, so each
// direction's arithmetic is specialised at compile time (as Parboil's macros do).
// Every multiply-add is an explicit fmaf and no product feeds an addition (which
// clang would contract, CUDA's default fp-contract=fast), so
// the result does not depend on the compiler's contraction (the test repeats it
// bit for bit).
constexpr int kQ = 19;
constexpr int kEx[kQ] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
constexpr int kEy[kQ] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
constexpr int kEz[kQ] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
constexpr int kOpposite[kQ] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
constexpr float kWeight[kQ] = {1.f / 3,  1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18,
                                  1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36,
                                  1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};

// Periodic neighbour coordinate (v is at most one step outside [0, n)).
static __device__ __forceinline__ int wrap(int v, int n) { return v < 0 ? v + n : (v >= n ? v - n : v); }

// The initial state: equilibrium for density 1 + noise and a bulk velocity (u0, 0, 0).
extern "C" __global__ void lbm_init(float* __restrict__ f, const float* __restrict__ noise, float u0) {
  const int cells = blockDim.x * gridDim.x * gridDim.y;
  const int cell = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  const float rho = 1.0f + noise[cell];
#pragma unroll
  for (int e = 0; e < kQ; ++e) f[e * cells + cell] = kWeight[e] * rho * fmaf(3.0f * u0, float(kEx[e]), 1.0f);
}

extern "C" __global__ void lbm_stream_collide(const float* __restrict__ src, float* __restrict__ dst,
                                              const unsigned* __restrict__ flags, float omega) {
  const int nx = blockDim.x, ny = gridDim.x, nz = gridDim.y;
  const int cells = nx * ny * nz;
  const int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  const int cell = (z * ny + y) * nx + x;
  float f[kQ];
#pragma unroll
  for (int e = 0; e < kQ; ++e) f[e] = src[e * cells + cell];
  if (flags[cell] == 0) {  // obstacle: every distribution turns round, then streams as usual
    float reflected[kQ];
#pragma unroll
    for (int e = 0; e < kQ; ++e) reflected[kOpposite[e]] = f[e];
#pragma unroll
    for (int e = 0; e < kQ; ++e) f[e] = reflected[e];
  } else {
    float rho = 0.0f, mx = 0.0f, my = 0.0f, mz = 0.0f;
#pragma unroll
    for (int e = 0; e < kQ; ++e) {
      rho += f[e];
      if (kEx[e] != 0) mx = kEx[e] > 0 ? mx + f[e] : mx - f[e];
      if (kEy[e] != 0) my = kEy[e] > 0 ? my + f[e] : my - f[e];
      if (kEz[e] != 0) mz = kEz[e] > 0 ? mz + f[e] : mz - f[e];
    }
    const float ux = mx / rho, uy = my / rho, uz = mz / rho;
    const float one_minus_u2 = fmaf(-1.5f, fmaf(ux, ux, fmaf(uy, uy, uz * uz)), 1.0f);  // 1 - 1.5 |u|^2
#pragma unroll
    for (int e = 0; e < kQ; ++e) {
      float eu = 0.0f;  // e . u: components are 0 or +-1
      if (kEx[e] != 0) eu = kEx[e] > 0 ? eu + ux : eu - ux;
      if (kEy[e] != 0) eu = kEy[e] > 0 ? eu + uy : eu - uy;
      if (kEz[e] != 0) eu = kEz[e] > 0 ? eu + uz : eu - uz;
      const float shape = fmaf(4.5f * eu, eu, fmaf(3.0f, eu, one_minus_u2));
      const float off_equilibrium = fmaf(-(kWeight[e] * rho), shape, f[e]);  // f - feq, one rounding
      f[e] = fmaf(-omega, off_equilibrium, f[e]);
    }
  }
  // Neighbour coordinates, indexed by the direction's component + 1.
  const int xs[3] = {wrap(x - 1, nx), x, wrap(x + 1, nx)};
  const int ys[3] = {wrap(y - 1, ny) * nx, y * nx, wrap(y + 1, ny) * nx};
  const int zs[3] = {wrap(z - 1, nz) * nx * ny, z * nx * ny, wrap(z + 1, nz) * nx * ny};
#pragma unroll
  for (int e = 0; e < kQ; ++e) dst[e * cells + zs[kEz[e] + 1] + ys[kEy[e] + 1] + xs[kEx[e] + 1]] = f[e];
}
