// BlackScholes (CUDA SDK): European call and put prices of every option in
// closed form (Black-Scholes with the Abramowitz-Stegun polynomial for the
// normal CDF), grid-stride over the options; the SDK times many launches.
static __device__ float normal_cdf(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  const float rsqrt_2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float tail = rsqrt_2pi * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0f ? 1.0f - tail : tail;
}

extern "C" __global__ void black_scholes(float* __restrict__ call, float* __restrict__ put,
                                         const float* __restrict__ price, const float* __restrict__ strike,
                                         const float* __restrict__ years, int count, float rate, float volatility) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    float s = price[i], x = strike[i], t = years[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (rate + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
    float d2 = d1 - volatility * sqrt_t;
    float n1 = normal_cdf(d1), n2 = normal_cdf(d2);
    float discount = expf(-rate * t);
    call[i] = s * n1 - x * discount * n2;
    put[i] = x * discount * (1.0f - n2) - s * (1.0f - n1);
  }
}
