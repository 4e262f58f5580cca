// Core shut-down (Jadidi, Arjomand, Kandemir, Das;
// docs/papers.md#core-shutdown-mechanism): per kernel launch, a memory-intensive
// kernel (MBU > 50% over the first group of CTAs) is searched by bisection over
// the active SM count with the surplus SMs paused (not gated), keeping the GPU
// IPC within alpha of the all-SM IPC; the surplus SMs of the result then drain
// and are power-gated, and are woken early so the wake-up latency overlaps the
// kernel's tail.
// The search, drift detection and early wake-up are KnobSearchPolicy's; the
// SM states are SmCountActuator's.
//
// CoreDvfsPolicy is the paper's comparison point: the same characterisation,
// but the knob is the SM domain's V/F state (7 states in gtx480_32sm.json):
// the lowest state whose instruction throughput (per second) stays within
// alpha of the top state's, found by bisection (3 steps for 7 states), applied
// while the kernel is memory-intensive; back to the top state at each launch.
#pragma once

#include "gpupm/policy/shared/actuate/sm_count_actuator.h"
#include "gpupm/policy/core_shutdown/knob_search_policy.h"

namespace gpupm {

class CoreShutdownPolicy : public KnobSearchPolicy {
 public:
  explicit CoreShutdownPolicy(const KnobSearchSettings& s) : KnobSearchPolicy(s) {}
  std::string name() const override { return "core-shutdown"; }
  Json describe() const override;
  const SmCountActuator& actuator() const { return act_; }

 protected:
  uint32_t top(const PolicyContext& ctx) const override { return ctx.sm_count(); }
  uint32_t min(const PolicyContext&) const override { return 1; }
  void apply_top(PolicyContext& ctx) override { act_.wake_all(ctx); }
  void apply_search(PolicyContext& ctx, uint32_t n) override { act_.set_active(ctx, n, SmMode::kPaused); }
  void apply_final(PolicyContext& ctx, uint32_t n) override { act_.set_active(ctx, n, SmMode::kDraining); }
  // Windows open once the draining SMs are empty (their CTAs, paused while
  // searching, would otherwise inflate the first settled window).
  bool applied(const PolicyContext& ctx) const override {
    for (uint32_t i = 0; i < act_.size(); ++i)
      if (act_.mode(i) == SmMode::kDraining && ctx.sm(i).resident_ctas() > 0) return false;
    return true;
  }
  double performance(const WindowStats& w) const override { return w.ipc; }
  uint64_t window_ctas(const PolicyContext&, uint32_t n) const override { return uint64_t(n) * ctas_per_sm(); }
  uint32_t ctas_in_flight(const PolicyContext&, uint32_t n) const override { return n * ctas_per_sm(); }
  void near_end(PolicyContext& ctx) override {
    if (act_.active() < act_.size()) act_.wake_all(ctx);
  }
  std::vector<bool> active_sms(const PolicyContext&) const override { return act_.active_set(); }

 private:
  SmCountActuator act_;
};

class CoreDvfsPolicy : public KnobSearchPolicy {
 public:
  explicit CoreDvfsPolicy(const KnobSearchSettings& s) : KnobSearchPolicy(s) {}
  std::string name() const override { return "core-dvfs"; }
  Json describe() const override;
  void on_epoch(PolicyContext& ctx, uint64_t sm_cycle) override;

 protected:
  uint32_t top(const PolicyContext& ctx) const override { return ctx.dvfs(Domain::Sm).nominal; }
  uint32_t min(const PolicyContext&) const override { return 0; }
  void apply_top(PolicyContext& ctx) override { go(ctx, top(ctx)); }
  void apply_search(PolicyContext& ctx, uint32_t v) override { go(ctx, v); }
  void apply_final(PolicyContext& ctx, uint32_t v) override { go(ctx, v); }
  bool applied(const PolicyContext& ctx) const override {
    return !ctx.in_transition(Domain::Sm) && ctx.level(Domain::Sm) == target_;
  }
  double performance(const WindowStats& w) const override { return w.ips; }
  uint64_t window_ctas(const PolicyContext& ctx, uint32_t) const override {
    return uint64_t(ctx.sm_count()) * ctas_per_sm();
  }
  uint32_t ctas_in_flight(const PolicyContext& ctx, uint32_t) const override { return ctx.sm_count() * ctas_per_sm(); }

 private:
  void go(PolicyContext& ctx, uint32_t level) {
    target_ = level;
    if (ctx.level(Domain::Sm) != level) ctx.request_level(Domain::Sm, level);
  }
  uint32_t target_ = 0;
};

}  // namespace gpupm
