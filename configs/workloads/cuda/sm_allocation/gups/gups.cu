// GUPS (HPCC RandomAccess): read-modify-write updates at random words of a
// table of 2^log_size 64-bit words. The random stream is HPCC's: a 64-bit
// LFSR (multiplication by x modulo x^64 + x^2 + x + 1), value i+1 following
// value i; the update for a value v is table[v mod size] ^= v. Each thread
// runs its own contiguous piece of the one stream, from the start value the
// host computed for it (HPCC_starts: x^(thread * updates_per_thread)), so
// the threads together make exactly HPCC's sequence of updates.
//
// The xor is atomic (atom.global.xor.b64, as GPU ports of RandomAccess do):
// HPCC tolerates lost updates from races, but with atomics the table's final
// contents do not depend on the order, and the host repeats them exactly.
//
// The feedback (HPCC's POLY, 7: x^64 = x^2 + x + 1) is a parameter, not a
// constant: clang's NVPTX back end (before llvm-project PR 130862, March 2025;
// clang 14 here) selects `(signed)ran < 0 ? 7 : 0`, i.e. (ran >> 63 arithmetic)
// & 7, as bfe.u64 ran, 63, 3, which is 1, not 7; with a run-time mask it stays
// shr.s64 and and.b64.
static __device__ __forceinline__ unsigned long long next_random(unsigned long long ran, unsigned long long feedback) {
  return (ran << 1) ^ ((long long)ran < 0 ? feedback : 0ull);
}

// CUDA's atomicXor(unsigned long long*, unsigned long long); the prelude has no atomicXor.
static __device__ __forceinline__ void atomic_xor(unsigned long long* word, unsigned long long value) {
  __nvvm_atom_xor_gen_ll(reinterpret_cast<long long*>(word), (long long)value);
}

extern "C" __global__ void gups_update(unsigned long long* __restrict__ table,
                                       const unsigned long long* __restrict__ starts, int updates_per_thread,
                                       int log_size, int feedback) {
  const unsigned long long mask = (1ull << log_size) - 1;
  unsigned long long ran = starts[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = 0; i < updates_per_thread; ++i) {
    ran = next_random(ran, (unsigned long long)feedback);
    atomic_xor(&table[ran & mask], ran);
  }
}
