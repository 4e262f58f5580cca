// C = A * B for n*n row-major matrices, 16x16 tiles staged in shared memory:
// each thread loads one element of each tile, then 16 multiply-adds from shared.
constexpr int kTile = 16;

extern "C" __global__ void matmul_tiled(const float* __restrict__ a, const float* __restrict__ b,
                                        float* __restrict__ c, int n) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * kTile + ty, column = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += kTile) {
    a_tile[ty][tx] = (row < n && t + tx < n) ? a[row * n + t + tx] : 0.0f;
    b_tile[ty][tx] = (column < n && t + ty < n) ? b[(t + ty) * n + column] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();  // the tiles are overwritten next round
  }
  if (row < n && column < n) c[row * n + column] = acc;
}
