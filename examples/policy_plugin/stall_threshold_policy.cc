// A policy plugin (docs/embedding.md#examples): "example-stall-threshold", a
// utilisation-threshold DVFS rule. Every policy.epoch_cycles SM cycles it
// measures the load/store units' stall fraction over the epoch (all SMs): above
// policy.threshold the SMs mostly wait for memory, so a slower SM clock costs
// little and the SM domain goes to its lowest V/F level; otherwise back to nominal.
// The report shows it: config.policy echoes the parameters, total.vf_residency.sm
// the time at each level, policy_trace the epochs and the level changes.
#include <gpupm/policy/policy_registry.h>

namespace {

class StallThresholdPolicy : public gpupm::Policy {
 public:
  StallThresholdPolicy(double threshold, uint64_t epoch_cycles) : threshold_(threshold), epoch_cycles_(epoch_cycles) {}
  std::string name() const override { return "example-stall-threshold"; }
  uint64_t epoch_cycles() const override { return epoch_cycles_; }
  void on_start(gpupm::PolicyContext& ctx) override { seen_ = stall_and_busy(ctx); }
  void on_epoch(gpupm::PolicyContext& ctx, uint64_t) override {
    const Window now = stall_and_busy(ctx);
    const uint64_t busy = now.busy - seen_.busy;
    const bool memory_bound = busy > 0 && double(now.stall - seen_.stall) > threshold_ * double(busy);
    seen_ = now;
    ++epochs_;
    memory_bound_epochs_ += memory_bound;
    const uint32_t wanted = memory_bound ? 0 : ctx.dvfs(gpupm::Domain::Sm).nominal;
    if (wanted != ctx.level(gpupm::Domain::Sm) && ctx.request_level(gpupm::Domain::Sm, wanted)) ++level_changes_;
  }
  gpupm::Json describe() const override {
    return {{"name", name()}, {"threshold", threshold_}, {"epoch_cycles", epoch_cycles_}};
  }
  gpupm::Json trace() const override {
    return {{"epochs", epochs_}, {"memory_bound_epochs", memory_bound_epochs_}, {"level_changes", level_changes_}};
  }

 private:
  struct Window {
    uint64_t stall = 0, busy = 0;  // LSU stall cycles, SM cycles with a resident CTA
  };
  static Window stall_and_busy(const gpupm::PolicyContext& ctx) {
    Window w;
    for (uint32_t i = 0; i < ctx.sm_count(); ++i) {
      const gpupm::SmCounters c = ctx.sm(i).counters();
      w.stall += c.lsu.stall_cycles;
      w.busy += c.busy_cycles;
    }
    return w;
  }

  double threshold_;
  uint64_t epoch_cycles_;
  Window seen_;
  uint64_t epochs_ = 0, memory_bound_epochs_ = 0, level_changes_ = 0;
};

}  // namespace

GPUPM_REGISTER_POLICY("example-stall-threshold",
                      "example plugin: SM domain at its lowest level while the LSU stall fraction is above "
                      "policy.threshold (default 0.5), else nominal; decided every policy.epoch_cycles (default 4096)",
                      [](const gpupm::PolicyArgs& a) {
                        return std::make_unique<StallThresholdPolicy>(
                            a.params.get_double("threshold", 0.0, 1.0, 0.5),
                            a.params.get_uint("epoch_cycles", 64, 1u << 24, 4096));
                      })
