// One fully connected sigmoid layer of a backpropagation network, trained on a batch:
// layer_forward  y[b][o] = sigmoid(bias[o] + sum_i x[b][i] * w[i][o])
//                (a block per sample; the sample's inputs staged in dynamic shared memory)
// adjust_weights w[i][o] += eta * sum_b delta[b][o] * x[b][i] + momentum * previous step,
//                delta = y (1 - y) (target - y)   (a thread per weight)
extern "C" __global__ void layer_forward(const float* __restrict__ x, const float* __restrict__ w,
                                         const float* __restrict__ bias, float* __restrict__ y, int n_in,
                                         int n_out) {
  extern __shared__ float inputs[];  // n_in floats: shared_bytes = 4 * n_in
  int sample = blockIdx.x;
  for (int i = threadIdx.x; i < n_in; i += blockDim.x) inputs[i] = x[sample * n_in + i];
  __syncthreads();
  for (int o = threadIdx.x; o < n_out; o += blockDim.x) {
    float sum = bias[o];
    for (int i = 0; i < n_in; ++i) sum += inputs[i] * w[i * n_out + o];
    y[sample * n_out + o] = 1.0f / (1.0f + __expf(-sum));
  }
}

extern "C" __global__ void adjust_weights(const float* __restrict__ x, const float* __restrict__ y,
                                          const float* __restrict__ target, float* __restrict__ w,
                                          float* __restrict__ previous_step, int n_in, int n_out, int batch,
                                          float eta, float momentum) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n_in * n_out) return;
  int i = index / n_out, o = index % n_out;
  float gradient = 0.0f;
  for (int b = 0; b < batch; ++b) {
    float out = y[b * n_out + o];
    float delta = out * (1.0f - out) * (target[b * n_out + o] - out);
    gradient += delta * x[b * n_in + i];
  }
  float step = eta * gradient + momentum * previous_step[index];
  w[index] += step;
  previous_step[index] = step;
}
