// y = A x with A in CSR, "vector" form: a warp per row, lanes stride over the
// row's non-zeros (gathering x through col), then a shuffle reduction.
extern "C" __global__ void spmv_csr_vector(const int* __restrict__ row_ptr, const int* __restrict__ col,
                                           const float* __restrict__ val, const float* __restrict__ x,
                                           float* __restrict__ y, int rows) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int lane = threadIdx.x & (warpSize - 1);
  if (row >= rows) return;  // whole warps leave together: blockDim is a multiple of 32
  float sum = 0.0f;
  int end = row_ptr[row + 1];
  for (int e = row_ptr[row] + lane; e < end; e += warpSize) sum += val[e] * x[col[e]];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = sum;
}
