// PVC (Mars PageViewCount): how often each URL appears in a web log, as Mars's
// map / sort / reduce pipeline:
//   pvc_map:     a thread per log line hashes the line's URL (FNV-1a over its
//                bytes up to the first NUL) and emits (hash, line);
//   pvc_bitonic: one compare-exchange step of a bitonic sort of the pairs by
//                hash (a launch per (k, j) step, as Mars's GPU sort);
//   pvc_reduce:  a thread per sorted pair: the first of each run of equal hashes
//                writes the run's length (the URL's view count), the others 0.
// A log line is kLineBytes: the URL in the first kUrlBytes, NUL-padded, then the client
// address and time (binary).
constexpr int kLineBytes = 32;
constexpr int kUrlBytes = 24;

extern "C" __global__ void pvc_map(const unsigned char* __restrict__ log, unsigned* __restrict__ keys,
                                   int* __restrict__ lines, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const unsigned char* url = log + i * kLineBytes;
  unsigned hash = 2166136261u;
  for (int b = 0; b < kUrlBytes && url[b] != 0; ++b) hash = (hash ^ url[b]) * 16777619u;
  keys[i] = hash;
  lines[i] = i;
}

extern "C" __global__ void pvc_bitonic(unsigned* __restrict__ keys, int* __restrict__ lines, int j, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, partner = i ^ j;
  if (partner <= i) return;  // the lower index of each pair does the exchange
  bool ascending = (i & k) == 0;
  unsigned a = keys[i], b = keys[partner];
  if ((a > b) == ascending) {
    keys[i] = b;
    keys[partner] = a;
    int line = lines[i];
    lines[i] = lines[partner];
    lines[partner] = line;
  }
}

extern "C" __global__ void pvc_reduce(const unsigned* __restrict__ keys, int* __restrict__ views, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  unsigned key = keys[i];
  int run = 0;
  if (i == 0 || keys[i - 1] != key)
    for (run = 1; i + run < count && keys[i + run] == key; ++run) {
    }
  views[i] = run;
}
