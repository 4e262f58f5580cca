// PVR (Mars PageViewRank-like): the number of distinct visitors of each URL in a
// web log, the count Mars ranks pages by, as a map / sort / reduce pipeline:
//   pvr_map:     a thread per log line emits the key (FNV-1a hash of the URL,
//                client id) as one 64-bit word (hash high) and its line;
//   pvr_bitonic: one compare-exchange step of a bitonic sort of the keys (a
//                launch per (k, j) step), which groups each URL's keys and,
//                inside a group, repeated visits by one client;
//   pvr_reduce:  a thread per sorted key: the first key of each URL's group
//                walks the group and counts the distinct clients, the others 0.
// A log line is kLineBytes: the URL in the first kUrlBytes, NUL-padded, then the
// client id (32-bit, little-endian) and a time.
constexpr int kLineBytes = 32;
constexpr int kUrlBytes = 24;
typedef unsigned long long Key;

static __device__ unsigned url_of(Key key) { return unsigned(key >> 32); }

extern "C" __global__ void pvr_map(const unsigned char* __restrict__ log, Key* __restrict__ keys,
                                   int* __restrict__ lines, int count) {
  int line = blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= count) return;
  const unsigned char* entry = log + line * kLineBytes;
  unsigned hash = 2166136261u;
  for (int b = 0; b < kUrlBytes && entry[b] != 0; ++b) hash = (hash ^ entry[b]) * 16777619u;
  unsigned client = *reinterpret_cast<const unsigned*>(entry + kUrlBytes);
  keys[line] = (Key(hash) << 32) | client;
  lines[line] = line;
}

extern "C" __global__ void pvr_bitonic(Key* __restrict__ keys, int* __restrict__ lines, int j, int k) {
  int low = blockIdx.x * blockDim.x + threadIdx.x, high = low ^ j;
  if (high <= low) return;  // each pair is exchanged by its lower index
  Key a = keys[low], b = keys[high];
  bool out_of_order = (low & k) == 0 ? a > b : a < b;  // ascending where bit k is clear
  if (!out_of_order) return;
  keys[low] = b;
  keys[high] = a;
  int swapped = lines[low];
  lines[low] = lines[high];
  lines[high] = swapped;
}

extern "C" __global__ void pvr_reduce(const Key* __restrict__ keys, int* __restrict__ visitors, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  unsigned url = url_of(keys[i]);
  int distinct = 0;
  if (i == 0 || url_of(keys[i - 1]) != url) {
    distinct = 1;
    for (int next = i + 1; next < count && url_of(keys[next]) == url; ++next) distinct += keys[next] != keys[next - 1];
  }
  visitors[i] = distinct;
}
