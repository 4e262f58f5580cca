// Shared pieces of the RTL-backed controller implementations (eq_sm_impl.cc,
// vote_arbiter_impl.cc): a Verilated top in plain C++ mode with its own
// context, clocked by hand (one rising edge per call), optional VCD, and the
// test-only fault injection of the lockstep checks. Only compiled when the
// build links the Verilated models (GPUPM_HAVE_RTL).
//
// Environment:
//   GPUPM_RTL_VCD=DIR       every RTL block dumps DIR/<block>.vcd from reset
//                           (<block> = eq_sm_block_sm<i> or vote_arbiter); for
//                           short runs: about 65 KB per block and 1000 cycles
//   GPUPM_LOCKSTEP_FAULT=BLOCK:SM:CYCLE:SIGNAL:BIT
//                           test-only: flips bit BIT (0..63) of the RTL output
//                           SIGNAL of BLOCK (eq_sm_block, vote_arbiter,
//                           droop_predictor or stagger_unit; SM ignored for the
//                           per-GPU arbiter and stagger unit) as read after the
//                           edge ending cycle CYCLE (edges since reset; for
//                           droop_predictor's combinational outputs, as read
//                           in cycle CYCLE). Off when unset.
#pragma once

#ifdef GPUPM_HAVE_RTL

#include "common/controller_impl.h"

#include <verilated.h>
#include <verilated_vcd_c.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupm::rtl {

struct FaultSpec {
  std::string block;
  int sm = 0;
  uint64_t cycle = 0;
  std::string signal;
  unsigned bit = 0;
};

// GPUPM_LOCKSTEP_FAULT parsed for `block` (nullopt when unset or for another
// block). Throws std::invalid_argument on a malformed value or unknown signal.
inline std::optional<FaultSpec> fault_from_env(const std::string& block, const std::vector<std::string>& signals) {
  const char* v = std::getenv("GPUPM_LOCKSTEP_FAULT");
  if (!v || !*v) return std::nullopt;
  std::vector<std::string> f;
  std::string cur;
  for (const char* p = v;; ++p) {
    if (*p == ':' || !*p) {
      f.push_back(cur);
      cur.clear();
      if (!*p) break;
    } else {
      cur += *p;
    }
  }
  static const char* const kBlocks[] = {"eq_sm_block", "vote_arbiter", "droop_predictor", "stagger_unit"};
  const std::string usage = std::string("GPUPM_LOCKSTEP_FAULT=\"") + v +
                            "\": expected BLOCK:SM:CYCLE:SIGNAL:BIT, BLOCK eq_sm_block, vote_arbiter, "
                            "droop_predictor or stagger_unit";
  bool known_block = false;
  for (const char* b : kBlocks) known_block |= !f.empty() && f[0] == b;
  if (f.size() != 5 || !known_block) throw std::invalid_argument(usage);
  if (f[0] != block) return std::nullopt;
  FaultSpec s;
  s.block = f[0];
  try {
    s.sm = std::stoi(f[1]);
    s.cycle = std::stoull(f[2]);
    s.bit = unsigned(std::stoul(f[4]));
  } catch (const std::exception&) {
    throw std::invalid_argument(usage);
  }
  s.signal = f[3];
  bool known = false;
  std::string list;
  for (const auto& n : signals) {
    known |= n == s.signal;
    list += (list.empty() ? "" : ", ") + n;
  }
  if (!known) throw std::invalid_argument(usage + "; signals of " + block + ": " + list);
  if (s.bit > 63) throw std::invalid_argument(usage + "; BIT must be 0..63");
  return s;
}

// The fault hook: flips the chosen bit of the chosen output when `fault` names
// this block instance (`sm`; -1 for a per-GPU block) and this edge.
template <std::size_t N>
void apply_fault(const std::optional<FaultSpec>& fault, int sm, uint64_t cycle,
                 const std::vector<std::string>& signals, std::array<uint64_t, N>& outputs) {
  if (!fault || fault->cycle != cycle || (sm >= 0 && fault->sm != sm)) return;
  for (std::size_t i = 0; i < N; ++i)
    if (signals[i] == fault->signal) outputs[i] ^= 1ull << fault->bit;
}

// Lockstep's check after one edge: the first output where the RTL (`got`)
// differs from the C++ model (`want`) throws LockstepMismatch; `detail()` (the
// inputs) is only built then. `vcd_path` is the RTL's dump, flushed first.
template <std::size_t N, class Detail, class Flush>
void compare_outputs(const char* block, int sm, uint64_t cycle, const std::vector<std::string>& signals,
                     const std::array<uint64_t, N>& want, const std::array<uint64_t, N>& got, Detail detail,
                     Flush flush, const std::string& vcd_path) {
  for (std::size_t i = 0; i < N; ++i) {
    if (want[i] == got[i]) continue;
    flush();
    throw LockstepMismatch(block, sm, cycle, signals[i], want[i], got[i],
                           detail() + (vcd_path.empty() ? std::string(" (GPUPM_RTL_VCD=DIR dumps the RTL)")
                                                        : "; VCD " + vcd_path));
  }
}

// One Verilated top (clk_i, rst_ni) with its own context, one rising edge per
// tick(); also the testbenches' harness (tb/). `vcd_dir` (null or empty: none)
// gets <name>.vcd of the whole run.
// Bits [lsb, lsb + width) of a Verilated output port of any width (width <= 64).
template <class T>
uint64_t port_bits(const T& port, unsigned lsb, unsigned width) {
  const uint64_t v = uint64_t(port) >> lsb;
  return width >= 64 ? v : v & ((1ull << width) - 1);
}
template <std::size_t N>
uint64_t port_bits(const VlWide<N>& port, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) v |= uint64_t(port[(lsb + b) / 32] >> ((lsb + b) % 32) & 1u) << b;
  return v;
}

template <class Top>
class Harness {
 public:
  Harness(const std::string& name, const char* vcd_dir) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(0);
    const bool vcd = vcd_dir && *vcd_dir;
    if (vcd) ctx_->traceEverOn(true);
    top_ = std::make_unique<Top>(ctx_.get(), name.c_str());
    if (vcd) {
      vcd_ = std::make_unique<VerilatedVcdC>();
      top_->trace(vcd_.get(), 99);
      vcd_path_ = std::string(vcd_dir) + "/" + name + ".vcd";
      vcd_->open(vcd_path_.c_str());
    }
    top_->clk_i = 0;
    top_->rst_ni = 1;
    eval();
  }
  ~Harness() {
    if (vcd_) vcd_->close();
    top_->final();
  }
  // Asynchronous reset: rst_ni falls (the model starts with every signal 0) and
  // is released, no clock edge.
  void reset() {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    eval();
    top_->rst_ni = 1;
    eval();
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  Top& top() { return *top_; }
  const std::string& vcd_path() const { return vcd_path_; }
  void flush() {
    if (vcd_) vcd_->flush();
  }

  // The inputs set by the caller settle with the clock low, no edge (to read
  // combinational outputs).
  void settle() {
    top_->clk_i = 0;
    eval();
  }

  // The inputs set by the caller settle with the clock low, then the rising edge.
  void tick() {
    top_->clk_i = 0;
    eval();
    top_->clk_i = 1;
    eval();
  }

 private:
  void eval() {
    top_->eval();
    if (vcd_) vcd_->dump(time_);
    ++time_;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  std::string vcd_path_;
  uint64_t time_ = 0;
};

}  // namespace gpupm::rtl

#endif  // GPUPM_HAVE_RTL
