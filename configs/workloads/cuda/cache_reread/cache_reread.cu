// Cache behaviour probe: each warp re-reads its own 1 KB slice (256 words, 8
// coalesced 128-byte loads) `passes` times. A 256-thread block touches 8 KB, so
// the resident blocks of an SM overflow a 16 KB L1 unless few blocks share it.
extern "C" __global__ void cache_reread(const unsigned* data, unsigned* __restrict__ out, int passes) {
  int thread = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  const unsigned* slice = data + (thread >> 5) * 256;
  unsigned sum = 0;
  for (int p = 0; p < passes; ++p) {
    for (int k = 0; k < 8; ++k) sum += slice[k * 32 + lane];
    asm volatile("" ::: "memory");  // keeps -O3 from hoisting the loads out of the pass loop
  }
  out[thread] = sum;
}
