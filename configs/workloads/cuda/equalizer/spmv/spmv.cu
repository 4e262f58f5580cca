// Parboil-style SpMV in JDS (jagged diagonal) format: a thread per row of the
// length-sorted matrix walks its warp's diagonals (padded with zero entries to
// whole warps, so every lane of a warp runs the same trip count), gathering x
// through the column indices, and writes y in the original row order.
extern "C" __global__ void spmv_jds(const float* __restrict__ data, const int* __restrict__ index,
                                   const int* __restrict__ perm, const int* __restrict__ jds_ptr,
                                   const int* __restrict__ warp_nnz, const float* __restrict__ x,
                                   float* __restrict__ y, int rows) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const int diagonals = warp_nnz[row / 32];
  float sum = 0.0f;
  for (int k = 0; k < diagonals; ++k) {
    const int j = jds_ptr[k] + row;
    sum = fmaf(data[j], x[index[j]], sum);
  }
  y[perm[row]] = sum;
}
