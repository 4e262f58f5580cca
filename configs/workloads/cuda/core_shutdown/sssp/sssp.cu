// SSSP (LonestarGPU, topology-driven): Bellman-Ford rounds over a weighted CSR
// graph, a thread per node. Every round each reached node relaxes all its
// out-edges with atomicMin; the host loop (while_nonzero on `changed`) repeats
// until a round lowers no distance.
constexpr unsigned kInfinity = 0xffffffffu;

extern "C" __global__ void sssp_init(unsigned* __restrict__ dist, int n, int source) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) dist[v] = v == source ? 0u : kInfinity;
}

extern "C" __global__ void sssp_relax(const int* __restrict__ row_ptr, const int* __restrict__ col,
                                      const unsigned* __restrict__ weight, unsigned* dist, unsigned* changed, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned d = dist[v];
  if (d == kInfinity) return;
  bool lowered = false;
  for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
    unsigned candidate = d + weight[e];
    if (candidate < atomicMin(&dist[col[e]], candidate)) lowered = true;
  }
  if (lowered) *changed = 1u;
}
