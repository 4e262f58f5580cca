// Needleman-Wunsch global alignment score matrix H ((n+1) x (n+1), row-major):
// H[i][j] = max(H[i-1][j-1] + (a[i-1] == b[j-1] ? match : mismatch), max(H[i-1][j], H[i][j-1]) - gap).
// The matrix is cut into 32x32 tiles; launch d computes the tiles on tile
// anti-diagonal d (one block of 32 threads per tile), and inside a tile the
// threads sweep its 63 cell anti-diagonals in shared memory with a barrier each.
constexpr int kTile = 32;

extern "C" __global__ void nw_init(int* __restrict__ score, int n, int gap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) {
    score[i] = -gap * i;            // row 0
    score[i * (n + 1)] = -gap * i;  // column 0
  }
}

extern "C" __global__ void nw_tiles(int* __restrict__ score, const unsigned char* __restrict__ seq_a,
                                    const unsigned char* __restrict__ seq_b, int n, int diagonal, int match,
                                    int mismatch, int gap) {
  __shared__ int h[kTile + 1][kTile + 1];
  int tiles = n / kTile;
  int tile_row = max(0, diagonal - (tiles - 1)) + int(blockIdx.x);
  int tile_col = diagonal - tile_row;
  int row0 = tile_row * kTile, col0 = tile_col * kTile, stride = n + 1;
  int t = threadIdx.x;
  // The halo: the row above and the column left of the tile, computed by earlier launches.
  h[0][t + 1] = score[row0 * stride + col0 + t + 1];
  h[t + 1][0] = score[(row0 + t + 1) * stride + col0];
  if (t == 0) h[0][0] = score[row0 * stride + col0];
  unsigned char a = seq_a[row0 + t];  // thread t owns tile row t + 1
  __syncthreads();
  for (int d = 0; d < 2 * kTile - 1; ++d) {
    int r = t + 1, c = d - t + 1;
    if (c >= 1 && c <= kTile) {
      int diag = h[r - 1][c - 1] + (a == seq_b[col0 + c - 1] ? match : mismatch);
      h[r][c] = max(diag, max(h[r - 1][c], h[r][c - 1]) - gap);
    }
    __syncthreads();
  }
  for (int r = 1; r <= kTile; ++r) score[(row0 + r) * stride + col0 + t + 1] = h[r][t + 1];
}
