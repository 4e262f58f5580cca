// The lockstep checks of Controller<> (controller.h), free of Verilator: the
// test-only fault hook and the first-mismatch report.
//
// Environment:
//   GPUPM_LOCKSTEP_FAULT=BLOCK:SM:CYCLE:SIGNAL:BIT
//                           test-only: flips bit BIT (0..63) of the RTL output
//                           SIGNAL of BLOCK (eq_sm_block, vote_arbiter,
//                           droop_predictor or stagger_unit; SM ignored for the
//                           per-GPU arbiter and stagger unit) as read after the
//                           edge ending cycle CYCLE (edges since reset; for
//                           droop_predictor's combinational outputs, as read
//                           in cycle CYCLE). Off when unset.
#pragma once

#include "gpupm/common/controller_impl.h"

#include <array>
#include <cstdint>
#include <cstdlib>
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
void apply_fault(const std::optional<FaultSpec>& fault, int sm, uint64_t cycle, const std::vector<std::string>& signals,
                 std::array<uint64_t, N>& outputs) {
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
    throw LockstepMismatch(
        block, sm, cycle, signals[i], want[i], got[i],
        detail() + (vcd_path.empty() ? std::string(" (GPUPM_RTL_VCD=DIR dumps the RTL)") : "; VCD " + vcd_path));
  }
}

}  // namespace gpupm::rtl
