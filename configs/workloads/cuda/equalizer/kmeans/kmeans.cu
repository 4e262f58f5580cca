// Rodinia-style k-means: kmeansPoint gives each point (a thread per point) the
// nearest cluster by squared distance over all features, reading the points in
// their row-major layout (each lane of a warp in a different cache line, every
// line re-read once per cluster: cache-bound as Rodinia's texture reads are);
// kmeans_centers stands in for Rodinia's host step: a block per cluster and
// feature sums that feature over the cluster's points (no atomics, a shared-memory
// tree) and divides by the count.
constexpr int kFeatures = 34;
constexpr int kCenterThreads = 256;  // kmeans_centers' block size (a power of two)

extern "C" __global__ void kmeansPoint(const float* __restrict__ features, const float* __restrict__ clusters,
                                       int* __restrict__ membership, int npoints, int nclusters) {
  const int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point >= npoints) return;
  int best = 0;
  float best_distance = 3.0e38f;
  for (int c = 0; c < nclusters; ++c) {
    float distance = 0.0f;
    for (int f = 0; f < kFeatures; ++f) {
      const float diff = features[point * kFeatures + f] - clusters[c * kFeatures + f];
      distance = fmaf(diff, diff, distance);  // explicit, so the host repeats it bit for bit
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = c;
    }
  }
  membership[point] = best;
}

// A block per (cluster, feature): its threads stride over the points, add the
// feature of those in the cluster, and a shared-memory tree sums the partials.
extern "C" __global__ void kmeans_centers(const float* __restrict__ features, const int* __restrict__ membership,
                                          float* __restrict__ clusters, int npoints) {
  __shared__ float sums[kCenterThreads];
  __shared__ int counts[kCenterThreads];
  const int c = blockIdx.x, f = blockIdx.y, t = threadIdx.x;
  float s = 0.0f;
  int count = 0;
  for (int p = t; p < npoints; p += kCenterThreads) {
    if (membership[p] != c) continue;
    s += features[p * kFeatures + f];
    ++count;
  }
  sums[t] = s;
  counts[t] = count;
  __syncthreads();
  for (int half = kCenterThreads / 2; half > 0; half >>= 1) {
    if (t < half) {
      sums[t] += sums[t + half];
      counts[t] += counts[t + half];
    }
    __syncthreads();
  }
  if (t == 0 && counts[0] > 0) clusters[c * kFeatures + f] = sums[0] / float(counts[0]);  // empty: keep
}
