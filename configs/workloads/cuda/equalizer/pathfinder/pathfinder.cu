// Rodinia-style pathfinder: the cheapest top-to-bottom path through a grid of
// wall costs, where each step moves down to one of the three cells below.
// One launch advances `steps` rows (a pyramid): a block of kBlock threads loads
// kBlock columns of the previous row into shared memory and recomputes a shrinking
// interior for each row, so only kBlock - 2 * pyramid columns per block are kept
// (the ghost columns on either side are recomputed by the neighbouring blocks).
constexpr int kBlock = 256;

extern "C" __global__ void dynproc_kernel(int steps, const int* __restrict__ wall, const int* __restrict__ src,
                                          int* __restrict__ dst, int cols, int start_row, int border) {
  __shared__ int prev[kBlock];
  __shared__ int next[kBlock];
  const int tx = threadIdx.x;
  const int kept = kBlock - 2 * steps;                  // columns this block is responsible for
  const int first = kept * int(blockIdx.x) - border;    // grid column of thread 0
  const int x = first + tx;
  // The valid threads of this block: those over grid columns (edges are clamped).
  const int valid_lo = first < 0 ? -first : 0;
  const int valid_hi = first + kBlock - 1 > cols - 1 ? kBlock - 1 - (first + kBlock - cols) : kBlock - 1;
  const bool in_grid = x >= 0 && x < cols;
  if (in_grid) prev[tx] = src[x];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < steps; ++i) {
    computed = false;
    if (tx >= i + 1 && tx <= kBlock - i - 2 && in_grid) {
      computed = true;
      const int left = prev[tx - 1 < valid_lo ? valid_lo : tx - 1];
      const int right = prev[tx + 1 > valid_hi ? valid_hi : tx + 1];
      const int best = min(min(left, prev[tx]), right);
      next[tx] = best + wall[(start_row + i) * cols + x];
    }
    __syncthreads();
    if (i == steps - 1) break;
    if (computed) prev[tx] = next[tx];
    __syncthreads();
  }
  if (computed) dst[x] = next[tx];
}
