// B+tree (Rodinia b+tree, findK): point queries on a B+tree of order 64, one
// block of 64 threads per query. At each inner level every thread tests its key
// slot (keys[t] <= target < keys[t + 1]) and the one that matches names the
// child; at the leaf the thread holding the target key returns its record. The
// nodes (4161 x 65 keys and children, 2.2 MB) exceed the L2.
// bpt_build lays a complete tree over the record keys 4 i + gap[i] (sorted,
// unique), a launch per level (Rodinia builds it on the host); nodes are in
// breadth-first order, root first.
constexpr int kOrder = 64;          // children per node
constexpr int kSlots = kOrder + 1;  // + a sentinel key
constexpr int kSentinel = 0x7fffffff;

static __device__ int record_key(const int* gaps, int record) { return 4 * record + gaps[record]; }

extern "C" __global__ void bpt_build(int* __restrict__ keys, int* __restrict__ children, const int* __restrict__ gaps,
                                     int level_first, int level_nodes, int child_first, int records_per_child) {
  int slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= level_nodes * kSlots) return;
  int node = slot / kSlots, j = slot % kSlots, at = (level_first + node) * kSlots + j;
  int child = node * kOrder + j;  // index within the next level (a record index at the leaves)
  keys[at] = j < kOrder ? record_key(gaps, child * records_per_child) : kSentinel;
  children[at] = j < kOrder ? child_first + child : -1;
}

extern "C" __global__ void bpt_find_k(const int* __restrict__ keys, const int* __restrict__ children,
                                      const int* __restrict__ records, const int* __restrict__ queries,
                                      int* __restrict__ answers, int height, int first_query) {
  // volatile: clang proves a non-escaping shared scalar untouched by bar.sync and would keep it in a register.
  __shared__ volatile int node, answer;
  int t = threadIdx.x, q = first_query + blockIdx.x;
  int target = queries[q];
  if (t == 0) {
    node = target >= keys[0] ? 0 : -1;  // below the smallest key: not in the tree
    answer = -1;
  }
  __syncthreads();
  for (int level = 0; level < height - 1 && node >= 0; ++level) {
    int slot = node * kSlots + t;
    bool mine = keys[slot] <= target && target < keys[slot + 1];
    __syncthreads();  // everyone has read `node`
    if (mine) node = children[slot];
    __syncthreads();
  }
  if (node >= 0 && keys[node * kSlots + t] == target) answer = records[children[node * kSlots + t]];
  __syncthreads();
  if (t == 0) answers[q] = answer;
}
