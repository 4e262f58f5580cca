#include "gpupm/policy/core_shutdown/core_shutdown_policy.h"

namespace gpupm {

namespace {
Json settings_json(const KnobSearchSettings& s) {
  return {{"alpha", s.alpha},
          {"mbu_threshold", s.mbu_threshold},
          {"drift_perf", s.drift_perf},
          {"drift_mbu", s.drift_mbu},
          {"drift_windows", s.drift_windows},
          {"research", s.research},
          {"early_wake", s.early_wake},
          {"wake_ns", s.wake_ns},
          {"wake_lead", s.wake_lead},
          {"check_cycles", s.check_cycles},
          {"reference_window", s.reference_window},
          {"reference", s.reference_best ? "best" : "top"}};
}
}  // namespace

Json CoreShutdownPolicy::describe() const {
  Json j = settings_json(settings());
  j["name"] = name();
  return j;
}

Json CoreDvfsPolicy::describe() const {
  Json j = settings_json(settings());
  j["name"] = name();
  return j;
}

void CoreDvfsPolicy::on_epoch(PolicyContext& ctx, uint64_t sm_cycle) {
  // A request refused during a transition is repeated once the domain is free.
  if (state() != State::kIdle && !ctx.in_transition(Domain::Sm) && ctx.level(Domain::Sm) != target_)
    ctx.request_level(Domain::Sm, target_);
  KnobSearchPolicy::on_epoch(ctx, sm_cycle);
}

}  // namespace gpupm
