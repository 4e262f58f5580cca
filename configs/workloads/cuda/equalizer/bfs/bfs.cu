// Rodinia-style breadth-first search with two kernels per level, a thread per
// node: bfs_expand takes every node on the frontier (mask) off it and gives its
// unvisited neighbours the next cost, marking them in `updating`; bfs_update
// turns the marked nodes into the next frontier, marks them visited and raises
// the level's flag (Rodinia's `over`, one slot per level here so that each
// level's flag survives for the check). bfs_init stands in for Rodinia's host
// initialisation: cost -1 everywhere but the source, the source on the frontier.
struct Node {
  int start;  // first edge
  int edges;  // number of edges
};

extern "C" __global__ void bfs_init(unsigned char* __restrict__ mask, unsigned char* __restrict__ visited,
                                    int* __restrict__ cost, int n, int source) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  mask[i] = visited[i] = i == source;
  cost[i] = i == source ? 0 : -1;
}

extern "C" __global__ void bfs_expand(const Node* __restrict__ nodes, const int* __restrict__ edges,
                                      unsigned char* __restrict__ mask, unsigned char* __restrict__ updating,
                                      const unsigned char* __restrict__ visited, int* __restrict__ cost, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !mask[i]) return;
  mask[i] = 0;
  const Node node = nodes[i];
  for (int e = node.start; e < node.start + node.edges; ++e) {
    const int to = edges[e];
    if (!visited[to]) {
      cost[to] = cost[i] + 1;  // every frontier node has the same cost: racing writers agree
      updating[to] = 1;
    }
  }
}

extern "C" __global__ void bfs_update(unsigned char* __restrict__ mask, unsigned char* __restrict__ updating,
                                      unsigned char* __restrict__ visited, int* __restrict__ over, int level, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !updating[i]) return;
  mask[i] = 1;
  visited[i] = 1;
  over[level] = 1;
  updating[i] = 0;
}
