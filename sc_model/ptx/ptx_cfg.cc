// Reconvergence points: basic blocks, a virtual exit joining every exit/ret,
// post-dominator sets by iterative data flow, and each conditional branch's
// reconvergence PC = the first instruction of its block's immediate post-dominator.
#include <cstdint>
#include <vector>

#include "gpupm/ptx/ptx_decoded.h"

namespace gpupm::ptx {
namespace {

using Bits = std::vector<uint64_t>;

bool is_branch_or_exit(const Instruction& in) { return in.op == Op::Bra || in.op == Op::Exit; }

struct Cfg {
  std::vector<uint32_t> block_start;        // per block: first PC
  std::vector<uint32_t> block_of;           // per PC
  std::vector<std::vector<uint32_t>> succ;  // per block; `exit_id` = the virtual exit
  uint32_t exit_id = 0;
};

Cfg build_cfg(const std::vector<Instruction>& code) {
  const uint32_t n = uint32_t(code.size());
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (uint32_t pc = 0; pc < n; ++pc) {
    if (code[pc].op == Op::Bra) leader[code[pc].target] = true;
    if (is_branch_or_exit(code[pc])) leader[pc + 1] = true;
  }
  Cfg g;
  g.block_of.resize(n);
  for (uint32_t pc = 0; pc < n; ++pc) {
    if (leader[pc]) g.block_start.push_back(pc);
    g.block_of[pc] = uint32_t(g.block_start.size() - 1);
  }
  g.exit_id = uint32_t(g.block_start.size());
  g.succ.resize(g.exit_id);
  for (uint32_t b = 0; b < g.exit_id; ++b) {
    uint32_t last = (b + 1 < g.exit_id ? g.block_start[b + 1] : n) - 1;
    const Instruction& in = code[last];
    auto fall_through = [&] { g.succ[b].push_back(last + 1 < n ? g.block_of[last + 1] : g.exit_id); };
    if (in.op == Op::Bra) {  // a label after the last instruction: running there falls off the end, an exit
      g.succ[b].push_back(in.target < n ? g.block_of[in.target] : g.exit_id);
      if (in.has_guard) fall_through();
    } else if (in.op == Op::Exit) {
      g.succ[b].push_back(g.exit_id);
      if (in.has_guard) fall_through();
    } else {
      fall_through();
    }
  }
  return g;
}

// pdom[b] = {b} ∪ ⋂ pdom[s] over successors; blocks that never reach the exit keep "all".
std::vector<Bits> post_dominators(const Cfg& g) {
  const uint32_t nodes = g.exit_id + 1, words = (nodes + 63) / 64;
  std::vector<Bits> pdom(nodes, Bits(words, ~0ull));
  pdom[g.exit_id].assign(words, 0);
  pdom[g.exit_id][g.exit_id / 64] |= 1ull << (g.exit_id % 64);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = g.exit_id; b-- > 0;) {
      Bits next(words, ~0ull);
      for (uint32_t s : g.succ[b])
        for (uint32_t w = 0; w < words; ++w) next[w] &= pdom[s][w];
      next[b / 64] |= 1ull << (b % 64);
      if (next != pdom[b]) pdom[b] = std::move(next), changed = true;
    }
  }
  return pdom;
}

uint32_t count(const Bits& bits) {
  uint32_t c = 0;
  for (uint64_t w : bits) c += uint32_t(__builtin_popcountll(w));
  return c;
}

}  // namespace

void compute_reconvergence(std::vector<Instruction>& code) {
  if (code.empty()) return;
  Cfg g = build_cfg(code);
  std::vector<Bits> pdom = post_dominators(g);
  const uint32_t nodes = g.exit_id + 1;
  std::vector<uint32_t> sizes(nodes);
  for (uint32_t b = 0; b < nodes; ++b) sizes[b] = count(pdom[b]);
  for (Instruction& in : code) {
    if (in.op != Op::Bra) continue;
    uint32_t b = g.block_of[&in - code.data()];
    in.reconv = kNever;
    if (sizes[b] >= nodes) continue;  // no path to the exit (set still "all"): never meet
    // The strict post-dominators form a chain; the immediate one has the largest set.
    for (uint32_t p = 0; p < g.exit_id; ++p)
      if (p != b && (pdom[b][p / 64] >> (p % 64) & 1) && sizes[p] == sizes[b] - 1) in.reconv = g.block_start[p];
  }
}

}  // namespace gpupm::ptx
