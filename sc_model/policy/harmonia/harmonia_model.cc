#include "gpupm/policy/harmonia/harmonia_model.h"

#include <algorithm>
#include <cstdlib>

namespace gpupm {

const char* bin_name(HBin b) { return b == HBin::kLow ? "LOW" : b == HBin::kMed ? "MED" : "HIGH"; }

HBin sensitivity_bin(double s, double low, double high) {
  if (s < low) return HBin::kLow;
  if (s > high) return HBin::kHigh;
  return HBin::kMed;
}

HarmoniaSensitivity predict_sensitivity(const Table2Counters& c, double bin_low, double bin_high) {
  HarmoniaSensitivity s;
  s.bw_raw = -0.42 + 0.003 * c.valu_utilization + 0.011 * c.write_unit_stalled + 0.01 * c.mem_unit_busy -
             0.004 * c.mem_unit_stalled + 1.003 * c.ic_activity + 1.158 * c.norm_vgpr - 0.731 * c.norm_sgpr;
  s.comp_raw = 0.06 + 0.007 * c.c_to_m + 0.452 * c.norm_vgpr + 0.024 * c.norm_sgpr;
  s.bw = std::clamp(s.bw_raw, 0.0, 1.0);
  s.comp = std::clamp(s.comp_raw, 0.0, 1.0);
  s.bw_bin = sensitivity_bin(s.bw, bin_low, bin_high);
  s.comp_bin = sensitivity_bin(s.comp, bin_low, bin_high);
  return s;
}

const char* tunable_name(int t) { return t == kCuCount ? "cus" : t == kCuFreq ? "sm_mhz" : "mem_mhz"; }

HConfig HarmoniaSpace::top() const {
  HConfig c;
  for (int t = 0; t < kHTunables; ++t) c.v[size_t(t)] = size(t) - 1;
  return c;
}

Json HarmoniaSpace::describe(const HConfig& c) const {
  Json j = Json::object();
  for (int t = 0; t < kHTunables; ++t) j[tunable_name(t)] = value(t, c.v[size_t(t)]);
  return j;
}

HarmoniaKernel::HarmoniaKernel(const HarmoniaSettings& s, const HarmoniaSpace& space)
    : s_(s), space_(space), cfg_(space.top()), applied_(cfg_), prev_applied_(cfg_), last_good_(cfg_) {}

HConfig HarmoniaKernel::cg_config(HBin bw, HBin comp) const {
  HConfig c = space_.top();
  for (int t = 0; t < kHTunables; ++t)
    if (s_.controlled[size_t(t)]) c.v[size_t(t)] = s_.cg[size_t(t)][size_t(t == kMemFreq ? bw : comp)];
  return c;
}

double HarmoniaKernel::impact(int t, int from, int to, const HarmoniaSensitivity& s) const {
  double hi = space_.value(t, to), lo = space_.value(t, from);
  return sensitivity(t, s) * (hi - lo) / hi;
}

void HarmoniaKernel::start_episode(double perf) {
  ref_perf_ = perf;
  last_good_ = applied_;
  held_ = {};
  dither_ = 0;
  frozen_ = false;
}

Json HarmoniaKernel::observe(const HarmoniaSensitivity& sens, double perf) {
  ++invocations_;
  if (invocations_ <= s_.warmup) {  // a cold invocation: watched, not acted on
    last_event_ = "warmup";
    return {{"perf", perf}, {"event", "warmup"}, {"dither", 0}, {"reference", 0.0}};
  }
  const bool changed_last = invocations_ > s_.warmup + 1 && applied_ != prev_applied_;
  bool lowered_last = false;  // the last decision lowered a tunable (CG or an FG step down)
  for (int t = 0; t < kHTunables; ++t)
    lowered_last |= invocations_ > s_.warmup + 1 && applied_.v[size_t(t)] < prev_applied_.v[size_t(t)];
  bool bins_changed = !have_bins_ || sens.bw_bin != prev_bw_ || sens.comp_bin != prev_comp_;
  Json r = {{"perf", perf}, {"changed_last", changed_last}};
  const bool no_loss = perf >= (1.0 - s_.fg_tolerance) * ref_perf_;
  if (bins_changed && changed_last &&
      (!lowered_last || (s_.keep_good_fg_steps && last_event_ == "fg-down" && no_loss))) {
    // Bins moved after tunables were only raised back (a revert): the kernel is back
    // in a state it has been in. Or after an FG step that cost nothing: the step
    // moved the kernel's balance without slowing it (fewer CUs relieving a
    // thrashing L2 make a kernel compute-bound). Either way the new bins stand
    // and FG goes on.
    prev_bw_ = sens.bw_bin;
    prev_comp_ = sens.comp_bin;
    bins_changed = false;
    r["rebinned"] = true;
  }
  HConfig next = applied_;
  std::string event;
  if (bins_changed && lowered_last) {
    // The configuration change itself moved the bins: undo it, keep the bins
    // measured before it, and do not step the same tunables again this episode.
    event = "revert";
    next = prev_applied_;
    for (int t = 0; t < kHTunables; ++t)
      if (std::abs(applied_.v[size_t(t)] - prev_applied_.v[size_t(t)]) == 1) held_[size_t(t)] = true;
    ++dither_;
    if (dither_ > s_.max_dither) {
      event = "settle";
      next = last_good_;
      frozen_ = true;
    }
  } else if (bins_changed) {
    event = "cg";
    prev_bw_ = sens.bw_bin;
    prev_comp_ = sens.comp_bin;
    have_bins_ = true;
    start_episode(perf);
    next = cg_config(sens.bw_bin, sens.comp_bin);
  } else if (!s_.fine_grain || frozen_) {
    event = "hold";
  } else if (no_loss || [&] {
               for (int t = 0; t < kHTunables; ++t)
                 if (applied_.v[size_t(t)] < last_good_.v[size_t(t)]) return false;
               return true;
             }()) {
    // Zero or positive gradient (or a loss with nothing below the last good
    // state to blame: the kernel itself changed, so this is the new reference).
    event = no_loss ? "fg-down" : "rebase";
    // The reference moves up only on a gain beyond the tolerance (fewer CUs
    // thrashing less), so that run-to-run noise does not ratchet it.
    if (event == "rebase" || perf > (1.0 + s_.fg_tolerance) * ref_perf_) ref_perf_ = perf;
    last_good_ = applied_;
    bool stepped = false;
    for (int t = 0; t < kHTunables; ++t) {
      int& v = next.v[size_t(t)];
      if (!s_.controlled[size_t(t)] || held_[size_t(t)] || v == 0) continue;
      if (s_.fg_skip_high && bin(t, sens) == HBin::kHigh) continue;
      --v;
      stepped = true;
    }
    if (!stepped) {
      event = "converged";
      frozen_ = true;
    }
  } else {
    // Negative gradient: isolate the responsible tunable and revert it to its
    // last good value; held if that was one FG step (after a CG jump it may be
    // stepped down again one step at a time).
    ++dither_;
    int pick = -1;
    double best = -1.0;
    for (int t = 0; t < kHTunables; ++t) {
      if (applied_.v[size_t(t)] >= last_good_.v[size_t(t)]) continue;
      double imp = impact(t, applied_.v[size_t(t)], last_good_.v[size_t(t)], sens);
      if (imp > best) best = imp, pick = t;
    }
    event = "fg-up";
    held_[size_t(pick)] = last_good_.v[size_t(pick)] - applied_.v[size_t(pick)] == 1;
    next.v[size_t(pick)] = last_good_.v[size_t(pick)];
    r["responsible"] = tunable_name(pick);
    if (dither_ > s_.max_dither) {
      event = "settle";
      next = last_good_;
      frozen_ = true;
    }
  }
  last_event_ = event;
  r["event"] = event;
  r["dither"] = dither_;
  r["reference"] = ref_perf_;
  prev_applied_ = applied_;
  applied_ = next;
  cfg_ = next;
  return r;
}

}  // namespace gpupm
