// Rodinia-style backprop: one training step of an N -> 16 -> 1 sigmoid network.
// Weights are (rows + 1) x 17 row-major, row 0 the bias and column 0 unused, as
// Rodinia lays them out.
// bpnn_layerforward: a 16 x 16 block per 16 inputs multiplies them into their
//   16 x 16 weights in shared memory and sums each hidden unit's column with a
//   tree (a barrier per level), one partial sum per block and hidden unit.
// bpnn_output: stands in for Rodinia's host step: totals the partial sums, the
//   hidden and output activations, the output and hidden errors, and adjusts the
//   hidden -> output weights.
// bpnn_adjust_weights: every input -> hidden weight moves by
//   eta * delta_hidden * input + momentum * previous move.
constexpr int kHidden = 16;
constexpr int kCols = kHidden + 1;  // weight row length

static __device__ float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

extern "C" __global__ void bpnn_layerforward(const float* __restrict__ input, const float* __restrict__ weights,
                                             float* __restrict__ partial_sum) {
  __shared__ float input_node[kHidden];
  __shared__ float products[kHidden][kHidden];
  const int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int row = kHidden * by + ty + 1;  // the input this thread's weight comes from
  if (tx == 0) input_node[ty] = input[row];
  __syncthreads();
  products[ty][tx] = weights[row * kCols + tx + 1] * input_node[ty];
  __syncthreads();
  for (int span = 2; span <= kHidden; span *= 2) {
    if (ty % span == 0) products[ty][tx] += products[ty + span / 2][tx];
    __syncthreads();
  }
  if (ty == 0) partial_sum[by * kHidden + tx] = products[0][tx];
}

// One block of kOutputThreads: thread t adds the partials t, t + kOutputThreads, ...
// (all of hidden unit t % 16), a shuffle pairs the two lanes of a warp with the
// same unit, then one thread per unit adds the warps' results.
constexpr int kOutputThreads = 1024;
constexpr int kOutputWarps = kOutputThreads / 32;

extern "C" __global__ void bpnn_output(const float* __restrict__ partial_sum, const float* __restrict__ weights,
                                       float* __restrict__ hidden, float* __restrict__ hidden_weights,
                                       float* __restrict__ hidden_prev, const float* __restrict__ target,
                                       float* __restrict__ output, float* __restrict__ hidden_delta, int blocks,
                                       float eta, float momentum) {
  __shared__ float warp_sums[kOutputWarps][kHidden];
  const int t = threadIdx.x, unit = t % kHidden;
  float sum = 0.0f;
  for (int i = t; i < blocks * kHidden; i += kOutputThreads) sum += partial_sum[i];
  sum += __shfl_xor_sync(0xffffffffu, sum, kHidden);
  if (t % 32 < kHidden) warp_sums[t / 32][unit] = sum;
  __syncthreads();
  if (t < kHidden) {
    float total = 0.0f;
    for (int w = 0; w < kOutputWarps; ++w) total += warp_sums[w][t];
    hidden[t + 1] = squash(total + weights[t + 1]);  // + the bias weight
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  hidden[0] = 1.0f;
  float net = 0.0f;
  for (int j = 0; j <= kHidden; ++j) net += hidden_weights[j] * hidden[j];
  const float out = squash(net);
  const float out_delta = out * (1.0f - out) * (target[0] - out);
  output[0] = out;
  output[1] = out_delta;
  for (int j = 1; j <= kHidden; ++j) hidden_delta[j] = hidden[j] * (1.0f - hidden[j]) * hidden_weights[j] * out_delta;
  for (int j = 0; j <= kHidden; ++j) {  // hidden -> output weights (Rodinia adjusts these on the host)
    const float step = eta * out_delta * hidden[j] + momentum * hidden_prev[j];
    hidden_weights[j] += step;
    hidden_prev[j] = step;
  }
}

extern "C" __global__ void bpnn_adjust_weights(const float* __restrict__ delta, const float* __restrict__ input,
                                               float* __restrict__ weights, float* __restrict__ previous, float eta,
                                               float momentum) {
  const int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int row = kHidden * by + ty + 1;
  const int index = row * kCols + tx + 1;
  const float step = eta * delta[tx + 1] * input[row] + momentum * previous[index];
  weights[index] += step;
  previous[index] = step;
  if (by == 0 && ty == 0) {  // the bias row (its input is 1)
    const float bias_step = eta * delta[tx + 1] + momentum * previous[tx + 1];
    weights[tx + 1] += bias_step;
    previous[tx + 1] = bias_step;
  }
}
