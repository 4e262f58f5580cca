// Harmonia (Paul, Huang, Arora, Yalamanchili, ISCA 2015;
// docs/papers.md#harmonia-predictors, #harmonia-algorithm) without SystemC:
// the Table 3 sensitivity predictors, binning, and the per-kernel two-level
// controller of Algorithm 1, as plain functions and one state machine per
// kernel, so unit tests drive them with numbers. HarmoniaPolicy
// (harmonia_policy.h) feeds them from the shared counter block and applies
// the configurations.
//
// Predictors (Table 3), units as we read them from the coefficients
// (docs/papers.md#harmonia-predictors): %-counters 0..100, icActivity and NormVGPR/NormSGPR 0..1; outputs
// clamped to [0, 1], then binned LOW < 0.30 <= MED <= 0.70 < HIGH.
//   S_BW   = -0.42 + 0.003 VALUUtilization + 0.011 WriteUnitStalled + 0.01 MemUnitBusy
//            - 0.004 MemUnitStalled + 1.003 icActivity + 1.158 NormVGPR - 0.731 NormSGPR
//   S_COMP =  0.06 + 0.007 CtoM + 0.452 NormVGPR + 0.024 NormSGPR
//
// The three tunables, each an ordered list of values, index 0 the lowest:
// CU count (4..32 step 4), CU V/F level, memory clock level.
//
// Per kernel, after each invocation measured at config() (observe()), once the
// first `warmup` invocations have been watched only:
//   bins changed, and no tunable changed for this invocation  -> CG: all three
//       tunables to the bin table (CU count and CU V/F from the compute bin,
//       memory from the bandwidth bin); a new FG episode starts with this
//       invocation as its reference.
//   bins changed right after a decision that lowered a tunable  -> artificial:
//       revert to the previous configuration (the bins measured there are
//       kept, the tunables it moved by one step are held for the episode, one
//       dither). After a decision that only raised tunables back (a revert),
//       or an FG step down with no loss (keep_good_fg_steps, our reading: the
//       gradient says the step was right), the new bins are taken as they are
//       and FG goes on.
//   bins unchanged                                             -> FG on the
//       performance proxy P (VALU busy of the whole device, device_valu_busy):
//       P >= (1 - fg_tolerance) x reference ("zero or positive gradient"):
//           this state is the last good one (the reference becomes P if P is
//           above (1 + fg_tolerance) x reference: a real gain, not noise);
//           step every controlled tunable that is not held, not at its lowest
//           value and not in the HIGH bin (fg_skip_high) down one step
//           (CU -4, f -100 MHz, memory -150 MHz), concurrently.
//       P below it (negative gradient): one dither; the responsible tunable is
//           isolated among those below their last-good value as the one with
//           the largest predicted slowdown, sensitivity x relative change (the
//           definition of sensitivity), and reverted to its last-good value; it
//           is held for the episode if that undoes one FG step (after a CG jump
//           FG may still try it one step below its last-good value).
//   (A revert of an artificial bin change holds the tunables that moved by one step.)
//       more than max_dither dithers: settle at the last good state (the last
//           state with zero gradient) until the next CG.
//       nothing left to step: converged (settled) until the next CG.
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/policy/shared/observe/kernel_counters.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

enum class HBin : uint8_t { kLow = 0, kMed = 1, kHigh = 2 };
const char* bin_name(HBin b);
HBin sensitivity_bin(double s, double low = 0.30, double high = 0.70);

struct HarmoniaSensitivity {
  double bw_raw = 0, comp_raw = 0;  // the regression's outputs
  double bw = 0, comp = 0;          // clamped to [0, 1]
  HBin bw_bin = HBin::kLow, comp_bin = HBin::kLow;
};
HarmoniaSensitivity predict_sensitivity(const Table2Counters& c, double bin_low = 0.30, double bin_high = 0.70);

enum HTunable : int { kCuCount = 0, kCuFreq = 1, kMemFreq = 2 };
constexpr int kHTunables = 3;
const char* tunable_name(int t);  // "cus", "sm_mhz", "mem_mhz"

// A configuration: the value index of each tunable.
struct HConfig {
  std::array<int, kHTunables> v{};
  bool operator==(const HConfig& o) const { return v == o.v; }
  bool operator!=(const HConfig& o) const { return v != o.v; }
};

// The values of each tunable, ascending: CU counts, CU clocks (MHz, one per SM
// V/F level), memory clocks (MHz, one per memory level).
struct HarmoniaSpace {
  std::array<std::vector<double>, kHTunables> values;
  int size(int t) const { return int(values[size_t(t)].size()); }
  double value(int t, int i) const { return values[size_t(t)][size_t(i)]; }
  HConfig top() const;
  Json describe(const HConfig& c) const;  // {"cus": 32, "sm_mhz": 1000, "mem_mhz": 1375}
};

struct HarmoniaSettings {
  bool fine_grain = true;                                     // false: CG only
  std::array<bool, kHTunables> controlled{true, true, true};  // the others stay at their top value
  // SetCU_Freq_MemBW: per tunable, the value index for each bin (LOW, MED, HIGH);
  // CU count and CU clock follow the compute bin, the memory clock the bandwidth bin.
  std::array<std::array<int, 3>, kHTunables> cg{};
  uint32_t max_dither = 3;     // [P2: unspecified] MAX_DITHER
  double fg_tolerance = 0.02;  // [P2: "gradient >= 0"] relative loss of P still read as a zero gradient
  bool fg_skip_high = true;    // FG does not step down a tunable whose sensitivity bin is HIGH
  // An FG step down that moves the bins without a loss is kept (its bins adopted);
  // false: the literal Algorithm 1, which reverts it as an artificial change.
  bool keep_good_fg_steps = true;
  double bin_low = 0.30, bin_high = 0.70;
  // Invocations of each kernel only watched before the first decision: the first
  // runs cold (caches empty of the kernel's reused data), which in the suite's
  // 10-30 us kernels is up to 18% of its time (configs/workloads/harmonia/README.md).
  uint32_t warmup = 1;
};

// Algorithm 1 for one kernel, across its invocations.
class HarmoniaKernel {
 public:
  HarmoniaKernel(const HarmoniaSettings& s, const HarmoniaSpace& space);
  // The configuration for the kernel's next invocation (the top one at first).
  const HConfig& config() const { return cfg_; }
  // The invocation that ran at config() gave sensitivities `s` and performance
  // proxy `perf`; decides config() for the next one. Returns what it did
  // ({"event": "warmup" | "cg" | "revert" | "fg-down" | "fg-up" | "settle" | "converged" | "hold" | "rebase", ...}).
  Json observe(const HarmoniaSensitivity& s, double perf);

  uint32_t dithers() const { return dither_; }
  bool frozen() const { return frozen_; }
  bool held(int t) const { return held_[size_t(t)]; }
  const HConfig& last_good() const { return last_good_; }
  double reference() const { return ref_perf_; }
  uint32_t invocations() const { return invocations_; }

 private:
  HConfig cg_config(HBin bw, HBin comp) const;
  double sensitivity(int t, const HarmoniaSensitivity& s) const { return t == kMemFreq ? s.bw : s.comp; }
  HBin bin(int t, const HarmoniaSensitivity& s) const { return t == kMemFreq ? s.bw_bin : s.comp_bin; }
  // Predicted slowdown of tunable t at index `from` instead of `to` (> from): S x (x_to - x_from) / x_to.
  double impact(int t, int from, int to, const HarmoniaSensitivity& s) const;
  void start_episode(double perf);

  HarmoniaSettings s_;
  HarmoniaSpace space_;
  HConfig cfg_;           // for the next invocation
  HConfig applied_;       // the invocation just measured ran at this
  HConfig prev_applied_;  // ... and the one before at this
  bool have_bins_ = false;
  std::string last_event_;
  HBin prev_bw_ = HBin::kLow, prev_comp_ = HBin::kLow;
  // FG episode
  double ref_perf_ = 0;
  HConfig last_good_;
  std::array<bool, kHTunables> held_{};
  uint32_t dither_ = 0;
  bool frozen_ = false;
  uint32_t invocations_ = 0;
};

}  // namespace gpupm
