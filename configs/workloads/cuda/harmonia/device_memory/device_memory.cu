// DeviceMemory (SHOC): global-memory bandwidth. The read kernel streams an
// 6 MiB array coalesced (consecutive threads, consecutive words; a grid-wide
// stride between a thread's loads) and keeps a per-thread sum so the loads are
// not dead; the write kernel streams stores over the same array.
extern "C" __global__ void read_coalesced(const float* __restrict__ data, float* __restrict__ sums, int words) {
  int threads = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int w = i; w < words; w += threads) sum += data[w];
  sums[i] = sum;
}

extern "C" __global__ void write_coalesced(float* __restrict__ data, int words, float value) {
  int threads = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int w = i; w < words; w += threads) data[w] = value + float(w & 1023);
}
