// LUD (Rodinia): in-place blocked LU decomposition without pivoting of an n x n
// row-major matrix, 16 x 16 blocks. For each diagonal block at `offset`:
//   lud_diagonal:  one block of 16 threads factors the diagonal block;
//   lud_perimeter: the blocks right of it (U row panel, threads 0-15, a column
//                  each) and below it (L column panel, threads 16-31, a row each);
//   lud_internal:  the trailing submatrix, a 16 x 16 thread block per tile,
//                  A -= L U from two shared tiles.
// Every update is an explicit fmaf in ascending k, so the host repeats it bit for bit.
constexpr int kB = 16;

extern "C" __global__ void lud_diagonal(float* __restrict__ a, int n, int offset) {
  __shared__ float tile[kB][kB];
  int t = threadIdx.x;
  float* block = a + offset * n + offset;
  for (int j = 0; j < kB; ++j) tile[t][j] = block[t * n + j];
  __syncthreads();
  for (int k = 0; k < kB - 1; ++k) {  // right-looking: divide column k, then update the rows below
    if (t > k) tile[t][k] = tile[t][k] / tile[k][k];
    __syncthreads();
    if (t > k)
      for (int j = k + 1; j < kB; ++j) tile[t][j] = fmaf(-tile[t][k], tile[k][j], tile[t][j]);
    __syncthreads();
  }
  for (int j = 0; j < kB; ++j) block[t * n + j] = tile[t][j];
}

extern "C" __global__ void lud_perimeter(float* __restrict__ a, int n, int offset) {
  __shared__ float diagonal[kB][kB];
  __shared__ float row_panel[kB][kB];  // the block to the right: rows offset.., columns c..
  __shared__ float col_panel[kB][kB];  // the block below: rows r.., columns offset..
  int t = threadIdx.x, i = t % kB;
  int tile = offset + (blockIdx.x + 1) * kB;
  bool upper = t < kB;
  for (int j = 0; j < kB; ++j) {
    if (upper) {
      diagonal[i][j] = a[(offset + i) * n + offset + j];
      row_panel[i][j] = a[(offset + i) * n + tile + j];
    } else {
      col_panel[i][j] = a[(tile + i) * n + offset + j];
    }
  }
  __syncthreads();
  if (upper) {  // column i of U12 = L11^-1 A12 (forward substitution, unit diagonal)
    for (int r = 1; r < kB; ++r)
      for (int k = 0; k < r; ++k) row_panel[r][i] = fmaf(-diagonal[r][k], row_panel[k][i], row_panel[r][i]);
    for (int r = 0; r < kB; ++r) a[(offset + r) * n + tile + i] = row_panel[r][i];
  } else {  // row i of L21 = A21 U11^-1
    for (int j = 0; j < kB; ++j) {
      for (int k = 0; k < j; ++k) col_panel[i][j] = fmaf(-col_panel[i][k], diagonal[k][j], col_panel[i][j]);
      col_panel[i][j] = col_panel[i][j] / diagonal[j][j];
    }
    for (int j = 0; j < kB; ++j) a[(tile + i) * n + offset + j] = col_panel[i][j];
  }
}

extern "C" __global__ void lud_internal(float* __restrict__ a, int n, int offset) {
  __shared__ float left[kB][kB];
  __shared__ float top[kB][kB];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = offset + (blockIdx.y + 1) * kB + ty, col = offset + (blockIdx.x + 1) * kB + tx;
  left[ty][tx] = a[row * n + offset + tx];
  top[ty][tx] = a[(offset + ty) * n + col];
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < kB; ++k) sum = fmaf(left[ty][k], top[k][tx], sum);
  a[row * n + col] -= sum;
}
