// Occupancy needs the registers per thread, which only ptxas knows. clang's
// PTX declares one virtual register per value (hundreds), so counting the
// declarations overstates it; the most values live at one point is the bound
// any allocator must meet, and what we use (docs/real_kernels.md).
#include "gpupm/ptx/ptx_decoded.h"

#include <algorithm>

namespace gpupm::ptx {

namespace {

using Bits = std::vector<uint64_t>;

bool has(const Bits& b, uint32_t r) { return (b[r / 64] >> (r % 64)) & 1; }

}  // namespace

uint32_t estimate_registers(const Kernel& k) {
  const size_t n = k.code.size();
  const uint32_t regs = k.num_regs;
  const size_t words = (regs + 63) / 64;
  if (n == 0 || regs == 0) return 1;
  std::vector<Bits> live_in(n, Bits(words, 0));
  // Backward dataflow to a fixed point: in = uses | (out - definite defs).
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      const Instruction& in = k.code[i];
      Bits out(words, 0);
      auto join = [&](size_t s) {
        if (s < n)
          for (size_t w = 0; w < words; ++w) out[w] |= live_in[s][w];
      };
      if (in.op == Op::Bra) {
        join(in.target);
        if (in.has_guard) join(i + 1);
      } else if (in.op != Op::Exit) {
        join(i + 1);
      }
      const InstInfo& info = k.info[i];
      if (!in.has_guard)  // a guarded write leaves the old value live for the other lanes
        for (uint8_t d = 0; d < info.n_dst; ++d) out[info.dst[d] / 64] &= ~(uint64_t(1) << (info.dst[d] % 64));
      for (uint8_t s = 0; s < info.n_src; ++s) out[info.src[s] / 64] |= uint64_t(1) << (info.src[s] % 64);
      if (out != live_in[i]) {
        live_in[i] = std::move(out);
        changed = true;
      }
    }
  }
  uint32_t most = 0;
  for (const Bits& b : live_in) {
    uint32_t words_live = 0;
    for (uint32_t r = 0; r < regs; ++r)
      if (has(b, r)) words_live += k.extra->words[r];
    most = std::max(most, words_live);
  }
  // Fermi allows 63 per thread; an instruction's result needs a register too.
  return std::min<uint32_t>(std::max<uint32_t>(most + 1, 1), 63);
}

}  // namespace gpupm::ptx
