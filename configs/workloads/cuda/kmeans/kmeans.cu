// k-means with 4-dimensional points: an assignment kernel (a thread per point,
// nearest centroid by squared distance) and an update kernel (a block per
// centroid sums its points in shared memory; no atomics, so no order effects).
constexpr int kDims = 4;
constexpr int kUpdateThreads = 256;  // the update kernel's block size (a power of two)

extern "C" __global__ void kmeans_assign(const float* __restrict__ points, const float* __restrict__ centroids,
                                         int* __restrict__ assignment, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float p[kDims];
  for (int d = 0; d < kDims; ++d) p[d] = points[i * kDims + d];
  int best = 0;
  float best_distance = 3.0e38f;
  for (int c = 0; c < k; ++c) {
    float distance = 0.0f;
    for (int d = 0; d < kDims; ++d) {
      float diff = p[d] - centroids[c * kDims + d];
      distance = fmaf(diff, diff, distance);  // explicit, so the host can repeat it bit for bit
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = c;
    }
  }
  assignment[i] = best;
}

extern "C" __global__ void kmeans_update(const float* __restrict__ points, const int* __restrict__ assignment,
                                         float* __restrict__ centroids, int n) {
  __shared__ float sums[kDims][kUpdateThreads];
  __shared__ int counts[kUpdateThreads];
  int c = blockIdx.x, t = threadIdx.x;
  float s[kDims] = {0.0f, 0.0f, 0.0f, 0.0f};
  int count = 0;
  for (int i = t; i < n; i += kUpdateThreads) {
    if (assignment[i] != c) continue;
    for (int d = 0; d < kDims; ++d) s[d] += points[i * kDims + d];
    ++count;
  }
  for (int d = 0; d < kDims; ++d) sums[d][t] = s[d];
  counts[t] = count;
  __syncthreads();
  for (int half = kUpdateThreads / 2; half > 0; half >>= 1) {
    if (t < half) {
      for (int d = 0; d < kDims; ++d) sums[d][t] += sums[d][t + half];
      counts[t] += counts[t + half];
    }
    __syncthreads();
  }
  if (t < kDims && counts[0] > 0) centroids[c * kDims + t] = sums[t][0] / float(counts[0]);  // empty: keep
}
