// miniFE (exascale proxy): conjugate gradients on the 27-point operator of a
// structured hexahedral mesh (26 on the diagonal, -1 to each neighbour node),
// as miniFE's cg_solve. minife_assemble builds the matrix (ELL: 27 slots per row,
// slot-major so a warp's rows read consecutive words; slots outside the mesh -1);
// then per iteration:
//   cg_update_p (p = r + beta p), cg_matvec (Ap = A p, a thread per row),
//   cg_dot_partial + cg_dot_final (p.Ap), cg_update_xr (x += alpha p, r -= alpha Ap),
//   cg_dot_partial + cg_dot_final (r.r).
// alpha and beta come from the dot products in `dots` (miniFE: on the host).
// Multiply-adds are explicit fmaf and the dot tree has a fixed shape, so the host
// repeats the solve bit for bit.
constexpr int kSlots = 27;
constexpr int kDotThreads = 256;

extern "C" __global__ void minife_assemble(int* __restrict__ cols, float* __restrict__ values, int side) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= side * side * side) return;
  int x = row % side, y = (row / side) % side, z = row / (side * side), slot = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx, ++slot) {
        int nx = x + dx, ny = y + dy, nz = z + dz;
        bool inside = nx >= 0 && nx < side && ny >= 0 && ny < side && nz >= 0 && nz < side;
        int at = slot * side * side * side + row;
        cols[at] = inside ? (nz * side + ny) * side + nx : -1;
        values[at] = slot == kSlots / 2 ? 26.0f : -1.0f;
      }
}

extern "C" __global__ void cg_matvec(float* __restrict__ y, const int* __restrict__ cols,
                                     const float* __restrict__ values, const float* __restrict__ x, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int s = 0; s < kSlots; ++s) {
    int c = cols[s * rows + row];
    if (c >= 0) sum = fmaf(values[s * rows + row], x[c], sum);
  }
  y[row] = sum;
}

// Block b sums a[i] * b[i] over its 2 * kDotThreads elements into partials[b].
extern "C" __global__ void cg_dot_partial(const float* __restrict__ a, const float* __restrict__ b,
                                          float* __restrict__ partials, int count) {
  __shared__ float tree[kDotThreads];
  int t = threadIdx.x, i = blockIdx.x * kDotThreads * 2 + t;
  float v = i < count ? a[i] * b[i] : 0.0f;
  if (i + kDotThreads < count) v = fmaf(a[i + kDotThreads], b[i + kDotThreads], v);
  tree[t] = v;
  __syncthreads();
  for (int half = kDotThreads / 2; half > 0; half >>= 1) {
    if (t < half) tree[t] += tree[t + half];
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.x] = tree[0];
}

// One block: the partials' sum (a strided sum per thread, then a tree) into dots[slot].
extern "C" __global__ void cg_dot_final(const float* __restrict__ partials, float* __restrict__ dots, int count,
                                        int slot) {
  __shared__ float tree[kDotThreads];
  int t = threadIdx.x;
  float v = 0.0f;
  for (int i = t; i < count; i += kDotThreads) v += partials[i];
  tree[t] = v;
  __syncthreads();
  for (int half = kDotThreads / 2; half > 0; half >>= 1) {
    if (t < half) tree[t] += tree[t + half];
    __syncthreads();
  }
  if (t == 0) dots[slot] = tree[0];
}

// beta = dots[rr_new] / dots[rr_old] (0 on the first iteration, rr_old < 0).
extern "C" __global__ void cg_update_p(float* __restrict__ p, const float* __restrict__ r,
                                       const float* __restrict__ dots, int rows, int rr_new, int rr_old) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float beta = rr_old < 0 ? 0.0f : dots[rr_new] / dots[rr_old];
  p[i] = fmaf(beta, p[i], r[i]);
}

// alpha = dots[rr] / dots[pap].
extern "C" __global__ void cg_update_xr(float* __restrict__ x, float* __restrict__ r, const float* __restrict__ p,
                                        const float* __restrict__ ap, const float* __restrict__ dots, int rows, int rr,
                                        int pap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float alpha = dots[rr] / dots[pap];
  x[i] = fmaf(alpha, p[i], x[i]);
  r[i] = fmaf(-alpha, ap[i], r[i]);
}
