// Parboil-style register-tiled SGEMM: C = alpha * A * B + beta * C, A (M x K) and
// C (M x N) column-major, B (K x N) row-major. A 128-thread block computes a
// 128 x 16 tile of C: each thread keeps one row's 16 results in registers,
// streams its row of A from global memory (coalesced down a column) and reads
// an 8 x 16 tile of B that the block stages in shared memory.
constexpr int kTileM = 128;  // rows per block = threads per block
constexpr int kTileN = 16;   // columns per block, accumulators per thread
constexpr int kTileK = 8;    // k-steps per shared B tile (kTileK * kTileN == kTileM: one load each)

extern "C" __global__ void sgemm_nn(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                    int m_rows, int n_cols, int k_depth, float alpha, float beta) {
  __shared__ __attribute__((aligned(16))) float b_tile[kTileK][kTileN];
  const int t = threadIdx.x;
  const int row = blockIdx.x * kTileM + t;
  const int col0 = blockIdx.y * kTileN;
  float acc[kTileN];
  for (int j = 0; j < kTileN; ++j) acc[j] = 0.0f;
  for (int k0 = 0; k0 < k_depth; k0 += kTileK) {
    float a_values[kTileK];  // the tile's A column fragment, all loads in flight at once
    for (int kk = 0; kk < kTileK; ++kk) a_values[kk] = a[(k0 + kk) * m_rows + row];
    __syncthreads();  // the previous tile is no longer read
    b_tile[t / kTileN][t % kTileN] = b[(k0 + t / kTileN) * n_cols + col0 + t % kTileN];
    __syncthreads();
    for (int kk = 0; kk < kTileK; ++kk)
      for (int j4 = 0; j4 < kTileN / 4; ++j4) {  // b_tile rows read as float4 (ld.shared.v4)
        const float4 bv = reinterpret_cast<const float4*>(b_tile[kk])[j4];
        acc[4 * j4] = fmaf(a_values[kk], bv.x, acc[4 * j4]);
        acc[4 * j4 + 1] = fmaf(a_values[kk], bv.y, acc[4 * j4 + 1]);
        acc[4 * j4 + 2] = fmaf(a_values[kk], bv.z, acc[4 * j4 + 2]);
        acc[4 * j4 + 3] = fmaf(a_values[kk], bv.w, acc[4 * j4 + 3]);
      }
  }
  for (int j = 0; j < kTileN; ++j) {
    float* out = c + (col0 + j) * m_rows + row;
    *out = alpha * acc[j] + beta * *out;
  }
}
