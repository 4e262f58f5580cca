// XSBench (exascale proxy, nuclide-grid search): macroscopic cross-section
// lookups of Monte Carlo neutron transport. Each thread draws a random energy
// and material, and for every nuclide of the material binary-searches that
// nuclide's energy grid, interpolates its 5 cross sections, and accumulates
// them weighted by the nuclide's concentration. The grids (68 nuclides x 2048
// points x 6 floats, 3.3 MB) are far larger than the L2: dependent, scattered
// loads. xs_grid_init builds each nuclide's sorted energy grid from jitter.
constexpr int kChannels = 5;     // total, elastic, absorption, fission, nu-fission
constexpr int kMaterials = 12;

static __device__ unsigned next_random(unsigned& state) {  // Numerical Recipes' 32-bit LCG
  state = state * 1664525u + 1013904223u;
  return state;
}
static __device__ float unit_float(unsigned r) { return float(r >> 8) * (1.0f / 16777216.0f); }

extern "C" __global__ void xs_grid_init(float* __restrict__ energy, const float* __restrict__ jitter, int points,
                                        int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) energy[i] = (float(i % points) + jitter[i]) * (1.0f / float(points));
}

extern "C" __global__ void xs_lookup(float* __restrict__ macro_xs, const float* __restrict__ energy,
                                     const float* __restrict__ xs, const int* __restrict__ mat_offsets,
                                     const int* __restrict__ mat_nuclides, const float* __restrict__ mat_conc,
                                     const float* __restrict__ mat_cdf, int points, int lookups, unsigned seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lookups) return;
  unsigned state = seed ^ (unsigned(i) * 2654435761u);
  float e = unit_float(next_random(state)), pick = unit_float(next_random(state));
  int material = 0;
  while (material < kMaterials - 1 && pick >= mat_cdf[material]) ++material;
  float macro[kChannels] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  for (int m = mat_offsets[material]; m < mat_offsets[material + 1]; ++m) {
    int nuclide = mat_nuclides[m];
    const float* grid = energy + nuclide * points;
    int lo = 0, hi = points - 1;  // the last lo with grid[lo] <= e (0 below the grid)
    while (hi - lo > 1) {
      int mid = (lo + hi) >> 1;
      if (grid[mid] <= e) lo = mid; else hi = mid;
    }
    float f = (grid[lo + 1] - e) / (grid[lo + 1] - grid[lo]);
    const float* low = xs + (nuclide * points + lo) * kChannels;
    float conc = mat_conc[m];
    for (int c = 0; c < kChannels; ++c) {
      float high = low[kChannels + c];
      macro[c] = fmaf(fmaf(-f, high - low[c], high), conc, macro[c]);  // explicit: the host repeats it
    }
  }
  for (int c = 0; c < kChannels; ++c) macro_xs[i * kChannels + c] = macro[c];
}
