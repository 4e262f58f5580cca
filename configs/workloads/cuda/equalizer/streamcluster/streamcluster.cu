// Rodinia-style streamcluster pgain kernel: the gain of opening candidate point x
// as a new centre. A thread per point computes the weighted squared distance to x
// (coordinates transposed, coord[d * num + i], so the loads coalesce); a point
// that would be closer to x than to its centre is marked to switch and its saving
// goes to its row's slot K, otherwise the loss goes to the slot of its current
// centre. Rodinia's host clears work_mem before each call and reduces it after;
// here each call (candidate) writes its own slice of work_mem and switch_membership.
struct Point {  // Rodinia's Point: weight, coordinate pointer, assign (long), cost
  float weight;
  int pad0;
  unsigned long long coord;  // unused on the device, as in Rodinia
  long long assign;          // the index of the point's centre
  float cost;
  int pad1;
};

static __device__ float squared_distance(int a, int b, int num, int dim, const float* __restrict__ coord) {
  float sum = 0.0f;
  for (int d = 0; d < dim; ++d) {
    const float diff = coord[d * num + a] - coord[d * num + b];
    sum = fmaf(diff, diff, sum);  // explicit, so the host repeats it bit for bit
  }
  return sum;
}

extern "C" __global__ void kernel_compute_cost(int num, int dim, int x, const Point* __restrict__ p, int k,
                                               int stride, const float* __restrict__ coord,
                                               float* __restrict__ work_mem, const int* __restrict__ center_table,
                                               unsigned char* __restrict__ switch_membership, int call) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= num) return;
  work_mem += (unsigned long long)call * num * stride;  // this call's slice
  switch_membership += (unsigned long long)call * num;
  float* lower = work_mem + tid * stride;
  const Point point = p[tid];
  const float x_cost = squared_distance(tid, x, num, dim, coord) * point.weight;
  if (x_cost < point.cost) {
    switch_membership[tid] = 1;
    lower[k] += x_cost - point.cost;
  } else {
    lower[center_table[point.assign]] += point.cost - x_cost;
  }
}
