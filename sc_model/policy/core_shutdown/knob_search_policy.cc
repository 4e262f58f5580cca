#include "gpupm/policy/core_shutdown/knob_search_policy.h"

#include <cmath>
#include <systemc>

namespace gpupm {

// ------------------------------------------------------------------ KneeSearch

void KneeSearch::start(uint32_t lo, uint32_t hi) {
  lo_ = lo;
  hi_ = hi;
  steps_ = 0;
  uint32_t n = hi >= lo ? hi - lo + 1 : 1;
  max_steps_ = 0;
  while ((1u << max_steps_) < n) ++max_steps_;  // ceil(log2(n)): 5 for 32 SM counts, 3 for 7 states
}

void KneeSearch::report(bool same) {
  if (done()) return;
  uint32_t mid = candidate();
  if (same) hi_ = mid;
  else lo_ = mid + 1;
  ++steps_;
}

// ------------------------------------------------------------------ settings

void describe(ParamVisitor& v, KnobSearchSettings& s, const PolicyTarget&) {
  v.number("mbu_threshold", s.mbu_threshold, 0.0, 1.0, "",
           "memory-bandwidth utilisation from which a kernel is searched (memory-bound)");
  v.number("alpha", s.alpha, 0.0, 1.0, "", "IPC margin a candidate may lose against the reference (relative)");
  v.number("drift_perf", s.drift_perf, 0.0, 10.0, "", "relative performance change that marks a phase change");
  v.number("drift_mbu", s.drift_mbu, 0.0, 1.0, "", "absolute bandwidth-utilisation change that marks a phase change");
  v.integer("drift_windows", s.drift_windows, 1, 64, "windows", "windows in a row a change must last");
  v.flag("research", s.research, "search again after a marked change");
  v.flag("early_wake", s.early_wake, "wake gated SMs before the kernel's predicted end");
  v.number("wake_ns", s.wake_ns, 0.0, 1e9, "ns", "a power-gated SM's wake-up time (as gwde.wake_latency_ns)");
  v.number("wake_lead", s.wake_lead, 0.0, 1000.0, "",
           "wake when the predicted remaining time is below this many wake-up times");
  v.integer("check_cycles", s.check_cycles, 1, 1u << 20, "SM cycles", "cycles between checks of the window counters");
  v.flag("reference_window", s.reference_window,
         "measure the search reference on a second window at the top setting (false: the classification window)");
  v.choice_of("reference", s.reference_best, {"top", "best"},
              "what a candidate is compared with: the all-SM reference or the best measured so far");
}

// ------------------------------------------------------------------ policy

void KnobSearchPolicy::tail_reached(PolicyContext& ctx) {
  if (state_ == State::kSearch) {
    setting_ = search_.result();
    apply_final(ctx, setting_);
  }
}

std::vector<bool> KnobSearchPolicy::active_sms(const PolicyContext&) const { return {}; }

void KnobSearchPolicy::record(const PolicyContext& ctx, const std::string& event, Json extra) {
  Json e = {{"cycle", ctx.sm_cycle()},
            {"time_us", sc_core::sc_time_stamp().to_seconds() * 1e6},
            {"event", event},
            {"setting", setting_}};
  if (kernel_) {
    e["kernel"] = kernel_->name;
    e["launch"] = kernel_->launch;
  }
  for (auto it = extra.begin(); it != extra.end(); ++it) e[it.key()] = it.value();
  trace_.push_back(std::move(e));
}

void KnobSearchPolicy::on_start(PolicyContext&) {}

uint64_t KnobSearchPolicy::completed_in_kernel(const PolicyContext& ctx) const {
  uint64_t n = 0;
  for (uint32_t i = 0; i < ctx.sm_count(); ++i) n += ctx.sm(i).counters().ctas_completed;
  return n - kernel_start_completed_;
}

uint64_t KnobSearchPolicy::left_to_dispatch(const PolicyContext& ctx) const {
  uint64_t resident = 0;
  for (uint32_t i = 0; i < ctx.sm_count(); ++i) resident += ctx.sm(i).resident_ctas();
  uint64_t started = completed_in_kernel(ctx) + resident;
  return kernel_->grid_ctas > started ? kernel_->grid_ctas - started : 0;
}

void KnobSearchPolicy::on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) {
  kernel_ = &k;
  ctas_per_sm_ = std::max(1u, ctx.occupancy_limit(k));
  kernel_start_completed_ = 0;
  kernel_start_completed_ = completed_in_kernel(ctx);
  woke_ = false;
  avg_cta_cycles_ = 0;
  window_.close();
  apply_top(ctx);
  start_sampling(ctx, "launch");
}

void KnobSearchPolicy::on_kernel_end(PolicyContext& ctx, const KernelLaunch&) {
  record(ctx, "end", {{"state", int(state_)}, {"avg_cta_cycles", avg_cta_cycles_}, {"woke_early", woke_}});
  window_.close();
  pending_open_ = false;
  state_ = State::kIdle;
  kernel_ = nullptr;
}

void KnobSearchPolicy::start_sampling(PolicyContext& ctx, const char* why) {
  state_ = State::kSample;
  setting_ = top(ctx);
  drift_count_ = 0;
  have_mon_ = false;
  window_.close();
  pending_open_ = true;
  pending_ctas_ = window_ctas(ctx, setting_);
  record(ctx, "sample", {{"why", why}, {"window_ctas", pending_ctas_}});
}

void KnobSearchPolicy::start_search(PolicyContext& ctx, double ref_perf, double ref_mbu) {
  state_ = State::kSearch;
  ref_perf_ = ref_perf;
  ref_mbu_ = ref_mbu;
  search_.start(min(ctx), top(ctx));
  record(ctx, "search", {{"ref_perf", ref_perf}, {"mbu", ref_mbu}, {"max_steps", search_.max_steps()}});
  next_candidate(ctx);
}

void KnobSearchPolicy::next_candidate(PolicyContext& ctx) {
  if (search_.done()) {
    settle(ctx, search_.result());
    return;
  }
  setting_ = search_.candidate();
  apply_search(ctx, setting_);
  window_.close();
  pending_open_ = true;
  pending_ctas_ = window_ctas(ctx, setting_);
}

void KnobSearchPolicy::settle(PolicyContext& ctx, uint32_t v) {
  setting_ = v;
  apply_final(ctx, v);
  state_ = State::kSettled;
  have_mon_ = false;
  mon_windows_ = 0;
  drift_count_ = 0;
  window_.close();
  pending_open_ = true;
  pending_ctas_ = window_ctas(ctx, v);
  record(ctx, "settle", {{"steps", search_.steps()}});
}

// The kernel's last CTAs: an unfinished search settles on its best setting so
// far (tail_reached), and no more windows are measured.
void KnobSearchPolicy::enter_tail(PolicyContext& ctx) {
  if (state_ == State::kSample || state_ == State::kReference || state_ == State::kSearch) tail_reached(ctx);
  state_ = State::kTail;
  window_.close();
  pending_open_ = false;
}

void KnobSearchPolicy::open_window(PolicyContext& ctx, uint64_t ctas) {
  window_.open(ctx, std::max<uint64_t>(1, ctas));
}

void KnobSearchPolicy::on_epoch(PolicyContext& ctx, uint64_t) {
  if (!kernel_ || state_ == State::kIdle) return;
  if (state_ != State::kTail && left_to_dispatch(ctx) == 0) {
    record(ctx, "tail");
    enter_tail(ctx);
  }
  if (!woke_ && s_.early_wake && avg_cta_cycles_ > 0) {
    double left = double(kernel_->grid_ctas) - double(completed_in_kernel(ctx));
    double in_flight = std::max(1u, ctas_in_flight(ctx, setting_));
    double remaining = std::max(0.0, left) / in_flight * avg_cta_cycles_;
    const DomainDvfs& d = ctx.dvfs(Domain::Sm);
    double wake_cycles = s_.wake_lead * s_.wake_ns * d.levels[ctx.level(Domain::Sm)].mhz / 1000.0;
    if (remaining <= wake_cycles) {
      woke_ = true;
      record(ctx, "wake", {{"predicted_remaining_cycles", remaining}, {"ctas_left", left}});
      near_end(ctx);
      if (state_ != State::kTail) enter_tail(ctx);
    }
  }
  if (state_ == State::kTail) return;
  if (pending_open_ && applied(ctx)) {
    open_window(ctx, pending_ctas_);
    pending_open_ = false;
  }
  if (window_.full(ctx)) {
    WindowStats act =
        KernelCounters::between(window_.start(), KernelCounters::take(ctx), ctx.mem_channels(), active_sms(ctx));
    if (act.avg_cta_cycles > 0) avg_cta_cycles_ = act.avg_cta_cycles;
    WindowStats w = window_.finish(ctx);
    window_closed(ctx, w);
  }
}

void KnobSearchPolicy::window_closed(PolicyContext& ctx, const WindowStats& w) {
  double perf = performance(w);
  Json m = {{"perf", perf},
            {"ipc", w.ipc},
            {"mbu", w.mbu},
            {"l2_hit_rate", w.l2_hit_rate},
            {"ctas", w.ctas_completed},
            {"avg_cta_cycles", avg_cta_cycles_}};
  auto reopen = [&] {
    pending_open_ = true;
    pending_ctas_ = window_ctas(ctx, setting_);
  };
  switch (state_) {
    case State::kSample:
      record(ctx, "sampled", m);
      if (w.mbu > s_.mbu_threshold && s_.reference_window) {
        state_ = State::kReference;
        reopen();
      } else if (w.mbu > s_.mbu_threshold) {
        start_search(ctx, perf, w.mbu);
      } else {
        state_ = State::kMonitorTop;
        drift_count_ = 0;
        reopen();
      }
      break;
    case State::kReference:
      record(ctx, "referenced", m);
      start_search(ctx, perf, w.mbu);
      break;
    case State::kSearch: {
      bool same = perf >= (1.0 - s_.alpha) * ref_perf_;
      m["candidate"] = setting_;
      m["ratio"] = ref_perf_ > 0 ? perf / ref_perf_ : 0.0;
      m["same"] = same;
      record(ctx, "step", m);
      if (same && s_.reference_best && perf > ref_perf_) ref_perf_ = perf;
      search_.report(same);
      next_candidate(ctx);
      break;
    }
    case State::kSettled: {
      if (!have_mon_) {  // first window after settling: surplus SMs still drain; the second is the reference
        if (++mon_windows_ >= 2) {
          have_mon_ = true;
          mon_perf_ = perf;
          mon_mbu_ = w.mbu;
          record(ctx, "reference", m);
        }
        reopen();
        break;
      }
      bool drift = (mon_perf_ > 0 && std::fabs(perf / mon_perf_ - 1.0) > s_.drift_perf) ||
                   std::fabs(w.mbu - mon_mbu_) > s_.drift_mbu;
      drift_count_ = drift ? drift_count_ + 1 : 0;
      if (drift && drift_count_ >= s_.drift_windows && s_.research) {
        record(ctx, "drift", m);
        apply_top(ctx);
        start_sampling(ctx, "drift");
      } else {
        reopen();
      }
      break;
    }
    case State::kMonitorTop:
      drift_count_ = w.mbu > s_.mbu_threshold ? drift_count_ + 1 : 0;
      if (drift_count_ >= s_.drift_windows && s_.research) {
        record(ctx, "drift", m);
        start_search(ctx, perf, w.mbu);
      } else {
        reopen();
      }
      break;
    default: break;
  }
}

}  // namespace gpupm
