// Registers by liveness: the occupancy estimate, and where each declared
// register lives in a warp's register file.
// Occupancy needs the registers per thread, which only ptxas knows. clang's
// PTX declares one virtual register per value (hundreds), so counting the
// declarations overstates it; the most values live at one point is the bound
// any allocator must meet, and what we use (docs/real_kernels.md).
// A warp's file has a 32-lane row per slot. With a row per declared register it
// reached 100 KiB a warp (cfd's flux kernel: 412 registers), zeroed at every warp
// start, and nearly every result went to a row not touched since: registers never
// live at once share a row instead (docs/speed.md).
#include "gpupm/ptx/ptx_decoded.h"

#include <algorithm>
#include <array>

namespace gpupm::ptx {

namespace {

using Bits = std::vector<uint64_t>;

bool has(const Bits& b, uint32_t r) { return (b[r / 64] >> (r % 64)) & 1; }
void add(Bits& b, uint32_t r) { b[r / 64] |= uint64_t(1) << (r % 64); }

// One instruction's register reads and writes, and where a thread goes next.
struct Flow {
  std::array<uint16_t, 8> reads{};
  std::array<uint16_t, 5> writes{};
  uint8_t n_reads = 0, n_writes = 0;
  bool kills = true;  // an unguarded write replaces the value in every lane that runs it
  std::array<uint32_t, 2> next{};
  uint8_t n_next = 0;
  void read(uint16_t r) { reads[n_reads++] = r; }
  void write(uint16_t r) { writes[n_writes++] = r; }
  void go(uint32_t pc) { next[n_next++] = pc; }
};

// Where a thread goes after `in` at `pc`. `guarded_exit_continues`: the lanes a
// guarded exit leaves running go on (the estimate has always ended the thread there).
void successors(const Instruction& in, uint32_t pc, bool guarded_exit_continues, Flow& f) {
  if (in.op == Op::Bra) {
    f.go(in.target);
    if (in.has_guard) f.go(pc + 1);
  } else if (in.op != Op::Exit || (in.has_guard && guarded_exit_continues)) {
    f.go(pc + 1);
  }
}

// Registers live out of instruction i: those live into where it goes next
// (past the last instruction nothing is live).
void live_out(const std::vector<Flow>& flow, const std::vector<Bits>& in, size_t i, Bits& out) {
  std::fill(out.begin(), out.end(), 0);
  for (uint8_t s = 0; s < flow[i].n_next; ++s)
    if (flow[i].next[s] < flow.size())
      for (size_t w = 0; w < out.size(); ++w) out[w] |= in[flow[i].next[s]][w];
}

// Registers live into each instruction: backward dataflow to a fixed point,
// in = reads | (out - killed writes).
std::vector<Bits> live_in(const std::vector<Flow>& flow, size_t words) {
  const size_t n = flow.size();
  std::vector<Bits> in(n, Bits(words, 0));
  Bits out(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      const Flow& f = flow[i];
      live_out(flow, in, i, out);
      if (f.kills)
        for (uint8_t d = 0; d < f.n_writes; ++d) out[f.writes[d] / 64] &= ~(uint64_t(1) << (f.writes[d] % 64));
      for (uint8_t s = 0; s < f.n_reads; ++s) add(out, f.reads[s]);
      if (out != in[i]) {
        in[i] = out;
        changed = true;
      }
    }
  }
  return in;
}

// What the executor reads and writes of the declared registers (ids < regs),
// from the instruction itself: the slots must hold for every access it makes.
Flow executed_flow(const Instruction& in, uint32_t pc, uint32_t regs) {
  Flow f;
  auto read = [&](uint16_t r) {
    if (r < regs) f.read(r);
  };
  auto write = [&](uint16_t r) {
    if (r < regs) f.write(r);
  };
  for (uint8_t s = 0; s < in.n_src; ++s) read(in.src[s]);
  if (in.has_base) read(in.base);
  if (in.has_guard) read(in.guard);
  for (uint8_t d = 0; d < in.n_dst; ++d) write(in.dst[d]);
  if (in.has_dst2) write(in.dst2);
  f.kills = !in.has_guard;
  successors(in, pc, true, f);
  return f;
}

// Beyond this many registers the interference matrix (regs^2 bits) is not built:
// each register keeps a row of its own, as before.
constexpr uint32_t kMostShared = 8192;

// Slot of each declared register: a greedy colouring of the interference graph
// (a write interferes with every register live after it), registers taken in the
// order the code first names them.
std::vector<uint16_t> colour(const std::vector<Flow>& flow, uint32_t regs, uint32_t& slots) {
  const size_t words = (regs + 63) / 64;
  const std::vector<Bits> in = live_in(flow, words);
  std::vector<Bits> conflicts(regs, Bits(words, 0));
  Bits out(words);
  for (size_t i = 0; i < flow.size(); ++i) {
    const Flow& f = flow[i];
    if (f.n_writes == 0) continue;
    live_out(flow, in, i, out);
    for (uint8_t d = 0; d < f.n_writes; ++d) {
      Bits& row = conflicts[f.writes[d]];
      for (size_t w = 0; w < words; ++w) row[w] |= out[w];
      for (uint8_t e = 0; e < f.n_writes; ++e) add(row, f.writes[e]);  // one instruction's results apart
    }
  }
  for (uint32_t r = 0; r < regs; ++r)  // symmetric
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = conflicts[r][w]; bits; bits &= bits - 1) add(conflicts[w * 64 + __builtin_ctzll(bits)], r);
  std::vector<uint32_t> order;
  std::vector<bool> named(regs, false);
  for (const Flow& f : flow) {
    auto name = [&](uint16_t r) {
      if (!named[r]) named[r] = true, order.push_back(r);
    };
    for (uint8_t d = 0; d < f.n_writes; ++d) name(f.writes[d]);
    for (uint8_t s = 0; s < f.n_reads; ++s) name(f.reads[s]);
  }
  constexpr uint16_t kNone = 0xffff;
  std::vector<uint16_t> slot(regs, kNone);
  std::vector<uint8_t> taken;
  slots = 1;
  for (uint32_t r : order) {
    taken.assign(slots + 1, 0);
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = conflicts[r][w]; bits; bits &= bits - 1) {
        const uint16_t s = slot[w * 64 + __builtin_ctzll(bits)];
        if (s != kNone) taken[s] = 1;
      }
    uint16_t s = 0;
    while (taken[s]) ++s;
    slot[r] = s;
    slots = std::max<uint32_t>(slots, s + 1u);
  }
  for (uint16_t& s : slot)
    if (s == kNone) s = 0;  // never named: no instruction reaches it
  return slot;
}

}  // namespace

uint32_t estimate_registers(const Kernel& k) {
  const size_t n = k.code.size();
  const uint32_t regs = k.num_regs;
  const size_t words = (regs + 63) / 64;
  if (n == 0 || regs == 0) return 1;
  std::vector<Flow> flow(n);
  for (size_t i = 0; i < n; ++i) {
    const InstInfo& info = k.info[i];
    for (uint8_t s = 0; s < info.n_src; ++s) flow[i].read(info.src[s]);
    for (uint8_t d = 0; d < info.n_dst; ++d) flow[i].write(info.dst[d]);
    flow[i].kills = !k.code[i].has_guard;  // a guarded write leaves the old value live for the other lanes
    successors(k.code[i], uint32_t(i), false, flow[i]);
  }
  uint32_t most = 0;
  for (const Bits& b : live_in(flow, words)) {
    uint32_t words_live = 0;
    for (uint32_t r = 0; r < regs; ++r)
      if (has(b, r)) words_live += k.extra->words[r];
    most = std::max(most, words_live);
  }
  // Fermi allows 63 per thread; an instruction's result needs a register too.
  return std::min<uint32_t>(std::max<uint32_t>(most + 1, 1), 63);
}

void assign_register_slots(Kernel& k) {
  const uint32_t regs = k.num_regs;
  std::vector<uint16_t> slot(regs);
  uint32_t slots = regs;
  if (regs > 0 && regs <= kMostShared) {
    std::vector<Flow> flow;
    flow.reserve(k.code.size());
    for (size_t i = 0; i < k.code.size(); ++i) flow.push_back(executed_flow(k.code[i], uint32_t(i), regs));
    slot = colour(flow, regs, slots);
  } else {
    for (uint32_t r = 0; r < regs; ++r) slot[r] = uint16_t(r);
  }
  k.register_slots = slots;
  // Hidden constant slots follow the shared ones.
  auto place = [&](uint16_t& id) { id = id < regs ? slot[id] : uint16_t(slots + (id - regs)); };
  for (Instruction& in : k.code) for_each_slot_field(in, place);
}

}  // namespace gpupm::ptx
