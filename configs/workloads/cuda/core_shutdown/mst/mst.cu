// MST (LonestarGPU, Boruvka): minimum spanning forest of an undirected weighted
// CSR graph (each undirected edge stored both ways with one id). Per round:
//   mst_find_min:  each node offers its lightest edge leaving its component;
//                  atomicMin on the component's packed (weight, edge id) key;
//   mst_find_min2: the node that owns the winning edge names the partner component;
//   mst_hook:      each component root hooks under its partner (of a mutual pair,
//                  the smaller id stays root) and marks its edge as in the tree;
//   mst_jump:      pointer jumping over the hooks (while_nonzero until flat);
//   mst_relabel:   every node takes its component's new root; keys reset.
// Keys are unique (weight, then edge id), so the forest is the unique MST.
constexpr unsigned kNone = 0xffffffffu;
constexpr int kIdBits = 22;

static __device__ unsigned key_of(unsigned weight, int id) { return (weight << kIdBits) | unsigned(id); }

extern "C" __global__ void mst_find_min(const int* __restrict__ row_ptr, const int* __restrict__ col,
                                        const int* __restrict__ edge_id, const unsigned* __restrict__ weight,
                                        const int* __restrict__ comp, unsigned* best, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int c = comp[v];
  unsigned lightest = kNone;
  for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e)
    if (comp[col[e]] != c) lightest = min(lightest, key_of(weight[edge_id[e]], edge_id[e]));
  if (lightest != kNone) atomicMin(&best[c], lightest);
}

extern "C" __global__ void mst_find_min2(const int* __restrict__ row_ptr, const int* __restrict__ col,
                                         const int* __restrict__ edge_id, const unsigned* __restrict__ weight,
                                         const int* __restrict__ comp, const unsigned* __restrict__ best,
                                         int* __restrict__ partner, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int c = comp[v];
  unsigned wanted = best[c];
  if (wanted == kNone) return;
  for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e)
    if (comp[col[e]] != c && key_of(weight[edge_id[e]], edge_id[e]) == wanted) partner[c] = comp[col[e]];
}

extern "C" __global__ void mst_hook(const int* __restrict__ comp, const unsigned* __restrict__ best,
                                    const int* __restrict__ partner, int* __restrict__ parent,
                                    unsigned* __restrict__ in_tree, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || comp[c] != c) return;  // only component roots
  if (best[c] == kNone) {
    parent[c] = c;
    return;
  }
  int other = partner[c];
  bool mutual = partner[other] == c;
  parent[c] = (mutual && c < other) ? c : other;
  in_tree[best[c] & ((1u << kIdBits) - 1u)] = 1u;  // a mutual pair marks the same edge twice
}

extern "C" __global__ void mst_jump(const int* __restrict__ comp, int* parent, unsigned* changed, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || comp[c] != c) return;
  int p = parent[c], grand = parent[p];
  if (grand != p) {
    parent[c] = grand;
    *changed = 1u;
  }
}

extern "C" __global__ void mst_relabel(int* __restrict__ comp, const int* __restrict__ parent,
                                       unsigned* __restrict__ best, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  comp[v] = parent[comp[v]];
  best[v] = kNone;
}
