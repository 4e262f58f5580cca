// binomialOptions (CUDA SDK): European call prices on a Cox-Ross-Rubinstein
// tree, a block per option. The leaves are max(S e^(vDt (2i - N)) - X, 0); then
// N backward steps, each node = pu/df * up + pd/df * down, ping-ponging two
// shared arrays with a barrier per step. Per-option S, X, vDt, pu/df, pd/df come
// from the host (gen_inputs.py, in double as the SDK computes them). The leaves
// are also stored to `leaves` (the SDK keeps them on chip) so the test can check
// the approximate expf apart from the tree, which it then repeats bit for bit.
constexpr int kSteps = 512;
constexpr int kThreads = 128;

extern "C" __global__ void binomial_options(float* __restrict__ call, float* __restrict__ leaves,
                                            const float* __restrict__ price,
                                            const float* __restrict__ strike, const float* __restrict__ v_dt,
                                            const float* __restrict__ pu_by_df, const float* __restrict__ pd_by_df) {
  __shared__ float nodes[2][kSteps + 1];
  int option = blockIdx.x, t = threadIdx.x;
  float s = price[option], x = strike[option], vdt = v_dt[option];
  float pu = pu_by_df[option], pd = pd_by_df[option];
  for (int i = t; i <= kSteps; i += kThreads) {
    nodes[0][i] = fmaxf(s * expf(vdt * float(2 * i - kSteps)) - x, 0.0f);
    leaves[option * (kSteps + 1) + i] = nodes[0][i];
  }
  __syncthreads();
  int current = 0;
  for (int level = kSteps; level > 0; --level) {  // level + 1 nodes -> level nodes
    for (int i = t; i < level; i += kThreads)
      nodes[current ^ 1][i] = fmaf(pu, nodes[current][i + 1], pd * nodes[current][i]);
    current ^= 1;
    __syncthreads();
  }
  if (t == 0) call[option] = nodes[current][0];
}
