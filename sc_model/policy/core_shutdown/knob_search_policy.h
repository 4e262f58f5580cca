// The run-time characterisation of the core shut-down paper
// (docs/papers.md#core-shutdown-mechanism), written once for any
// ordered knob whose top setting is "everything on": the active SM count
// (core shut-down) or the core V/F state (the core-DVFS comparison point).
//
// Per kernel launch (CTA-based sampling, so launches are characterised
// independently and kernels launched once are handled too):
//   sample    knob at its top; a window closes after the first group of CTAs
//             (#SMs x CTAs per SM) completes: reference performance P1 and MBU.
//   classify  MBU <= mbu_threshold: leave the kernel alone, keep monitoring.
//   reference (reference_window) a second window of the same size at the top
//             setting measures P1 (the first one includes the kernel's start).
//   search    bisection over [min, top] (ceil(log2(#settings)) steps): each
//             candidate is applied (apply_search), and after settle() a window
//             of window_ctas(candidate) CTAs measures P_i; "same" if
//             P_i >= (1 - alpha) P1 (one-sided: a gain, as in cache-thrashing
//             kernels, counts as the same).
//   settle    apply_final(result); then monitoring windows.
//   drift     a monitored window whose performance differs from the settled
//             reference by more than drift_perf (relative) or whose MBU moves by
//             more than drift_mbu, drift_windows times in a row, restores the
//             top setting and samples again (a compute kernel whose MBU rises
//             above the threshold is searched the same way).
//   tail      when no CTA is left to dispatch a running search stops at its
//             best known setting (tail_reached()); near_end() is called once
//             when the predicted remaining time (CTAs left / CTAs in flight x
//             average CTA time) falls below wake_lead x the wake-up time.
// Everything the policy does is recorded in trace() (one object per event).
#pragma once

#include "gpupm/policy/shared/observe/kernel_counters.h"
#include "gpupm/policy/policy.h"
#include "gpupm/policy/policy_params.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

// Bisection for the smallest setting in [lo, hi] that performs like hi, with
// performance non-increasing as the setting falls. report() the outcome of each
// candidate() until done(); result() is the smallest setting known to pass (hi
// if none did).
class KneeSearch {
 public:
  void start(uint32_t lo, uint32_t hi);
  bool done() const { return lo_ >= hi_ || steps_ >= max_steps_; }
  uint32_t candidate() const { return (lo_ + hi_) / 2; }
  void report(bool same);
  uint32_t result() const { return hi_; }
  uint32_t steps() const { return steps_; }
  uint32_t max_steps() const { return max_steps_; }

 private:
  uint32_t lo_ = 0, hi_ = 0, steps_ = 0, max_steps_ = 0;
};

struct KnobSearchSettings {
  double mbu_threshold = 0.50;  // [P1] primary threshold
  double alpha = 0.05;          // [P1: unspecified] IPC margin, relative, one-sided
  double drift_perf = 0.25;     // [P1: unspecified] "noticeable change": relative performance change
  double drift_mbu = 0.15;      //   ... or absolute MBU change
  uint32_t drift_windows = 2;   //   ... in this many windows in a row
  bool research = true;         // re-search on a marked change
  bool early_wake = true;
  double wake_ns = 1000.0;      // power-gated SM wake-up time (should match gwde.wake_latency_ns)
  double wake_lead = 2.0;       // [P1: unspecified] wake when the predicted remaining time is below
                                // wake_lead x the wake-up time (the prediction ignores the tail's imbalance)
  uint32_t check_cycles = 256;  // SM cycles between checks of the window counters
  // Measure the search reference P1 on a second window at the top setting (true),
  // or on the classification window itself (false, the paper's literal reading).
  // The first group of CTAs starts all at once, and in our model reads 5-8%
  // above the kernel's steady state on bandwidth-bound kernels.
  bool reference_window = true;
  // What a candidate is compared with: "top" (the all-SM P1, the paper's
  // |IPC_i - IPC_1| <= alpha read one-sided) or "best" (the best performance
  // measured so far in this search, P1 included). With "best" a kernel whose IPC
  // rises when SMs are removed settles near its peak (the paper's speed-ups on
  // BFS/SSSP/SP/MUM); with "top" it goes on down to the count that only matches P1.
  bool reference_best = true;
};

// policy.mbu_threshold, alpha, drift_perf, drift_mbu, drift_windows, research, early_wake,
// wake_ns, wake_lead, check_cycles, reference_window, reference.
void describe(ParamVisitor& v, KnobSearchSettings& s, const PolicyTarget& t);

class KnobSearchPolicy : public Policy {
 public:
  explicit KnobSearchPolicy(const KnobSearchSettings& s) : s_(s) {}
  uint64_t epoch_cycles() const override { return s_.check_cycles; }
  void on_start(PolicyContext& ctx) override;
  void on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) override;
  void on_kernel_end(PolicyContext& ctx, const KernelLaunch& k) override;
  void on_epoch(PolicyContext& ctx, uint64_t sm_cycle) override;
  Json trace() const override { return trace_; }
  const KnobSearchSettings& settings() const { return s_; }

  enum class State { kIdle, kSample, kReference, kSearch, kSettled, kMonitorTop, kTail };
  State state() const { return state_; }
  uint32_t setting() const { return setting_; }

 protected:
  // The knob. top(): everything on; settings below it go down to min().
  virtual uint32_t top(const PolicyContext& ctx) const = 0;
  virtual uint32_t min(const PolicyContext& ctx) const = 0;
  virtual void apply_top(PolicyContext& ctx) = 0;                    // kernel start, re-sampling
  virtual void apply_search(PolicyContext& ctx, uint32_t v) = 0;     // a candidate while searching
  virtual void apply_final(PolicyContext& ctx, uint32_t v) = 0;      // the converged setting
  virtual bool applied(const PolicyContext&) const { return true; }  // the setting is in effect
  virtual double performance(const WindowStats& w) const = 0;        // higher is better
  virtual uint64_t window_ctas(const PolicyContext& ctx, uint32_t v) const = 0;
  virtual uint32_t ctas_in_flight(const PolicyContext& ctx, uint32_t v) const = 0;
  // Nothing left to dispatch: by default a running search stops at its best known setting.
  virtual void tail_reached(PolicyContext& ctx);
  void enter_tail(PolicyContext& ctx);
  virtual void near_end(PolicyContext&) {}                               // early wake-up point
  virtual std::vector<bool> active_sms(const PolicyContext& ctx) const;  // for the average CTA time

  const KernelLaunch* kernel() const { return kernel_; }
  uint32_t ctas_per_sm() const { return ctas_per_sm_; }
  void record(const PolicyContext& ctx, const std::string& event, Json extra = Json::object());

 private:
  void open_window(PolicyContext& ctx, uint64_t ctas);
  void start_sampling(PolicyContext& ctx, const char* why);
  void start_search(PolicyContext& ctx, double ref_perf, double ref_mbu);
  void next_candidate(PolicyContext& ctx);
  void settle(PolicyContext& ctx, uint32_t v);
  void window_closed(PolicyContext& ctx, const WindowStats& w);
  uint64_t left_to_dispatch(const PolicyContext& ctx) const;
  uint64_t completed_in_kernel(const PolicyContext& ctx) const;

  KnobSearchSettings s_;
  State state_ = State::kIdle;
  const KernelLaunch* kernel_ = nullptr;
  uint32_t ctas_per_sm_ = 1;
  uint32_t setting_ = 0;
  bool pending_open_ = false;  // a window opens once the setting is applied
  uint64_t pending_ctas_ = 0;
  CtaWindow window_;
  KneeSearch search_;
  double ref_perf_ = 0, ref_mbu_ = 0;  // the top setting's (search reference)
  double mon_perf_ = 0, mon_mbu_ = 0;  // the settled reference (drift)
  bool have_mon_ = false;
  uint32_t mon_windows_ = 0;
  uint32_t drift_count_ = 0;
  double avg_cta_cycles_ = 0;
  bool woke_ = false;
  uint64_t kernel_start_completed_ = 0;
  Json trace_ = Json::array();
};

}  // namespace gpupm
