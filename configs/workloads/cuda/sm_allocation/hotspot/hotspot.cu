// HotSpot (Rodinia): transient 2-D thermal simulation of a chip. Each cell's
// temperature T moves, per time step, by step / Cap times the power it
// dissipates plus the heat its four neighbours (through Rx, Ry) and the
// ambient (through Rz, at 80 degrees) conduct into it. Cells on the chip's
// edge see themselves for the missing neighbour (no flux across the edge).
//
// Rodinia's pyramid: a 16 x 16 block loads a tile of temperature and power
// into shared memory and advances it `iterations` steps there; every step the
// ring of cells it can still compute correctly shrinks by one, so a block
// keeps only its central (16 - 2 iterations)^2 cells and the blocks' tiles
// overlap by `iterations` cells on each side (border_cols/rows). The host
// ping-pongs temp_src and temp_dst between launches.
constexpr int kBlock = 16;
constexpr float kAmbient = 80.0f;

struct Tile {
  int lo_y, hi_y, lo_x, hi_x;  // the tile's cells inside the grid, in tile coordinates
};

static __device__ __forceinline__ bool in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }

// The part of a tile whose top-left grid cell is (y0, x0) that lies inside the grid.
static __device__ __forceinline__ Tile tile_in_grid(int y0, int x0, int rows, int cols) {
  Tile t;
  t.lo_y = y0 < 0 ? -y0 : 0;
  t.hi_y = y0 + kBlock - 1 > rows - 1 ? rows - 1 - y0 : kBlock - 1;
  t.lo_x = x0 < 0 ? -x0 : 0;
  t.hi_x = x0 + kBlock - 1 > cols - 1 ? cols - 1 - x0 : kBlock - 1;
  return t;
}

// One step of one cell. The multiply-adds are spelled out (fmaf) in Rodinia's
// order of terms, so the host repeats them bit for bit:
//   T + step/Cap * (P + (S + N - 2T)/Ry + (E + W - 2T)/Rx + (amb - T)/Rz)
static __device__ __forceinline__ float cell_step(float t, float p, float n, float s, float w, float e,
                                                  float step_div_cap, float rx_1, float ry_1, float rz_1) {
  const float vertical = fmaf(-2.0f, t, s + n);
  const float horizontal = fmaf(-2.0f, t, e + w);
  const float flow = fmaf(kAmbient - t, rz_1, fmaf(horizontal, rx_1, fmaf(vertical, ry_1, p)));
  return fmaf(step_div_cap, flow, t);
}

extern "C" __global__ void calculate_temp(int iterations, const float* __restrict__ power,
                                          const float* __restrict__ temp_src, float* __restrict__ temp_dst, int cols,
                                          int rows, int border_cols, int border_rows, float cap, float rx, float ry,
                                          float rz, float step) {
  __shared__ float temp[kBlock][kBlock];
  __shared__ float heat[kBlock][kBlock];  // power
  __shared__ float next[kBlock][kBlock];
  const float step_div_cap = step / cap;
  const float rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int kept = kBlock - 2 * iterations;  // the block's central cells, written back
  const int y0 = kept * int(blockIdx.y) - border_rows, x0 = kept * int(blockIdx.x) - border_cols;
  const int index = (y0 + ty) * cols + (x0 + tx);
  if (in_range(y0 + ty, 0, rows - 1) && in_range(x0 + tx, 0, cols - 1)) {
    temp[ty][tx] = temp_src[index];
    heat[ty][tx] = power[index];
  }
  __syncthreads();
  const Tile in = tile_in_grid(y0, x0, rows, cols);
  // Neighbours clamped into the grid: an edge cell is its own missing neighbour.
  const int north = max(ty - 1, in.lo_y), south = min(ty + 1, in.hi_y);
  const int west = max(tx - 1, in.lo_x), east = min(tx + 1, in.hi_x);
  bool computed = false;
  for (int i = 0; i < iterations; ++i) {
    computed = in_range(tx, i + 1, kBlock - i - 2) && in_range(ty, i + 1, kBlock - i - 2) &&
               in_range(tx, in.lo_x, in.hi_x) && in_range(ty, in.lo_y, in.hi_y);
    if (computed)
      next[ty][tx] = cell_step(temp[ty][tx], heat[ty][tx], temp[north][tx], temp[south][tx], temp[ty][west],
                               temp[ty][east], step_div_cap, rx_1, ry_1, rz_1);
    __syncthreads();
    if (i == iterations - 1) break;
    if (computed) temp[ty][tx] = next[ty][tx];
    __syncthreads();
  }
  if (computed) temp_dst[index] = next[ty][tx];
}
