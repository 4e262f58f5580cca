// Parboil-style MRI gridding: non-Cartesian k-space samples are spread onto a
// Cartesian grid by a compact kernel. As Parboil, the samples are first binned
// (binning_kernel: a bin per 4 x 4 x 4 grid cells, each sample's bin and its rank
// in it from an atomic counter), the bin counts scanned into starts
// (scan_kernel), the samples reordered bin by bin (reorder_kernel), and then a
// thread per grid point gathers the samples of the bins within the kernel's
// radius (gridding_kernel) with weight (1 - d^2 / r^2)^2 (Parboil interpolates a
// Kaiser-Bessel table).
constexpr int kBinSide = 4, kScanThreads = 256;

static __device__ int bin_of(float x, float y, float z, int bins) {
  return (int(z) / kBinSide * bins + int(y) / kBinSide) * bins + int(x) / kBinSide;
}

extern "C" __global__ void binning_kernel(const float* __restrict__ kx, const float* __restrict__ ky,
                                          const float* __restrict__ kz, int* __restrict__ bin_count,
                                          int* __restrict__ sample_bin, int* __restrict__ sample_rank, int n,
                                          int bins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int bin = bin_of(kx[i], ky[i], kz[i], bins);
  sample_bin[i] = bin;
  sample_rank[i] = atomicAdd(&bin_count[bin], 1);
}

// One block: bin_start[b] = count[0] + ... + count[b - 1] (and the total at the end),
// kScanThreads consecutive bins per pass, a shared-memory Hillis-Steele scan each.
extern "C" __global__ void scan_kernel(const int* __restrict__ bin_count, int* __restrict__ bin_start, int total_bins) {
  __shared__ int sums[kScanThreads];
  __shared__ int carry;
  const int t = threadIdx.x;
  if (t == 0) carry = 0;
  for (int base = 0; base < total_bins; base += kScanThreads) {
    __syncthreads();
    sums[t] = base + t < total_bins ? bin_count[base + t] : 0;
    __syncthreads();
    for (int offset = 1; offset < kScanThreads; offset *= 2) {
      const int add = t >= offset ? sums[t - offset] : 0;
      __syncthreads();
      sums[t] += add;
      __syncthreads();
    }
    if (base + t < total_bins) bin_start[base + t] = carry + sums[t] - bin_count[base + t];  // exclusive
    __syncthreads();
    if (t == 0) carry += sums[kScanThreads - 1];
  }
  __syncthreads();
  if (t == 0) bin_start[total_bins] = carry;
}

extern "C" __global__ void reorder_kernel(const float* __restrict__ kx, const float* __restrict__ ky,
                                          const float* __restrict__ kz, const float* __restrict__ re,
                                          const float* __restrict__ im, const int* __restrict__ sample_bin,
                                          const int* __restrict__ sample_rank, const int* __restrict__ bin_start,
                                          float4* __restrict__ sorted_position, float2* __restrict__ sorted_value,
                                          int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int to = bin_start[sample_bin[i]] + sample_rank[i];
  sorted_position[to] = {kx[i], ky[i], kz[i], 0.0f};
  sorted_value[to] = {re[i], im[i]};
}

extern "C" __global__ void gridding_kernel(const float4* __restrict__ sorted_position,
                                           const float2* __restrict__ sorted_value, const int* __restrict__ bin_start,
                                           float2* __restrict__ grid, int size, float radius) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= size * size * size) return;
  const int x = p % size, y = (p / size) % size, z = p / (size * size);
  const int bins = size / kBinSide, reach = int(ceilf(radius));
  const float r2 = radius * radius, inv_r2 = 1.0f / r2;
  float sum_re = 0.0f, sum_im = 0.0f;
  for (int bz = max(0, (z - reach) / kBinSide); bz <= min(bins - 1, (z + reach) / kBinSide); ++bz)
    for (int by = max(0, (y - reach) / kBinSide); by <= min(bins - 1, (y + reach) / kBinSide); ++by)
      for (int bx = max(0, (x - reach) / kBinSide); bx <= min(bins - 1, (x + reach) / kBinSide); ++bx) {
        const int bin = (bz * bins + by) * bins + bx;
        for (int s = bin_start[bin]; s < bin_start[bin + 1]; ++s) {
          const float4 k = sorted_position[s];
          const float dx = x - k.x, dy = y - k.y, dz = z - k.z;
          const float d2 = dx * dx + dy * dy + dz * dz;
          if (d2 < r2) {
            const float w = 1.0f - d2 * inv_r2;
            const float2 v = sorted_value[s];
            sum_re += w * w * v.x;
            sum_im += w * w * v.y;
          }
        }
      }
  grid[p] = {sum_re, sum_im};
}
