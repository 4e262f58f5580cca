// Level-synchronous BFS on a CSR graph: launch L expands the nodes at level L.
// The launch cannot take L as an argument (the workload repeats one launch with
// while_nonzero on `changed`), so state[0] holds L and the last block to finish
// a launch advances it (state[1] counts finished blocks).

extern "C" __global__ void bfs_init(int* __restrict__ level, unsigned* __restrict__ state, int n, int source) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) level[i] = (i == source) ? 0 : -1;  // -1: not reached
  if (i < 2) state[i] = 0;
}

extern "C" __global__ void bfs_step(const int* __restrict__ row_ptr, const int* __restrict__ col, int* level,
                                    unsigned* state, unsigned* changed, int n) {
  int current = *(volatile unsigned*)&state[0];  // read before this block reports done
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && level[v] == current) {
    int end = row_ptr[v + 1];
    for (int e = row_ptr[v]; e < end; ++e) {
      int u = col[e];
      // Racing writers all write current + 1: no atomics needed.
      if (level[u] < 0) {
        level[u] = current + 1;
        *changed = 1;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    unsigned finished = atomicAdd(&state[1], 1u);
    if (finished == gridDim.x - 1) {  // every other block has read `current`
      state[1] = 0;
      state[0] = current + 1;
    }
  }
}
