// LIB (the LIBOR market model Monte Carlo of GPGPU-Sim's suite, after Giles):
// a thread per path evolves kRates forward LIBOR rates over kMaturities
// timesteps driven by one random shock per step, then values a portfolio of
// receiver swaptions and discounts it. Each thread keeps its rates, discount
// factors and annuities in per-thread arrays indexed by loop counters, i.e. in
// local memory: the traffic that makes LIB memory-intensive.
// Multiply-adds are explicit fmaf so the host can bound each rounding.
constexpr int kRates = 56;
constexpr int kMaturities = 28;
constexpr int kOptions = 15;
constexpr float kDelta = 0.25f;

__constant__ int kOptionMaturity[kOptions] = {4, 4, 4, 8, 8, 8, 12, 12, 12, 20, 20, 20, 28, 28, 28};
__constant__ float kSwapRate[kOptions] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                          .055f, .045f, .05f, .055f, .045f, .05f, .055f};

extern "C" __global__ void lib_path(float* __restrict__ value, const float* __restrict__ shocks,
                                    const float* __restrict__ lambda, int paths) {
  int path = blockIdx.x * blockDim.x + threadIdx.x;
  if (path >= paths) return;
  float rate[kRates], discount[kRates], annuity[kRates];
  for (int i = 0; i < kRates; ++i) rate[i] = 0.05f;
  const float root_delta = sqrtf(kDelta);
  for (int n = 0; n < kMaturities; ++n) {
    float shock = root_delta * shocks[n * paths + path];
    float drift = 0.0f;
    for (int i = n + 1; i < kRates; ++i) {
      float lam = lambda[i - n - 1], con = kDelta * lam;
      drift = fmaf(con, rate[i] / fmaf(kDelta, rate[i], 1.0f), drift);
      rate[i] = rate[i] * expf(fmaf(con, drift, lam * fmaf(-0.5f, con, shock)));
    }
  }
  float b = 1.0f, s = 0.0f;
  for (int n = kMaturities; n < kRates; ++n) {
    b = b / fmaf(kDelta, rate[n], 1.0f);
    s = fmaf(kDelta, b, s);
    discount[n] = b;
    annuity[n] = s;
  }
  float v = 0.0f;
  for (int o = 0; o < kOptions; ++o) {
    int m = kOptionMaturity[o] + kMaturities - 1;
    float swap = fmaf(kSwapRate[o], annuity[m], discount[m]) - 1.0f;
    if (swap < 0.0f) v = fmaf(-100.0f, swap, v);
  }
  for (int n = 0; n < kMaturities; ++n) v = v / fmaf(kDelta, rate[n], 1.0f);
  value[path] = v;
}
