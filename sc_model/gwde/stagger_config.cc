#include "gpupm/gwde/stagger_config.h"

namespace gpupm {

namespace {
const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> n = {"uniform", "cumulative", "grouped"};
  return n;
}
}  // namespace

void describe(ParamVisitor& v, GlobalSmoothingConfig& x, const uint32_t& sm_count) {
  v.flag("enabled", x.enabled, "the stagger unit in the GWDE");
  v.integer("report_period", x.report_period, 1, 16, "cycles", "between the SMs' active-warp reports");
  v.integer("window_slots", x.window_slots, 1, 3, "reports", "report slots a transition stays pending");
  v.integer("k_min", x.k_min, 1, 63, "SMs",
            "SMs going 0 -> >= 1 active warps within the window that trigger a stagger");
  v.integer("step_cycles", x.step_cycles, 0, 255, "cycles", "stagger step");
  v.choice_of("policy", x.policy, policy_names(), "how the stagger spreads the SMs");
  v.integer("groups", x.groups, 1, 7, "groups", "for the grouped policy");
  v.rule("stagger_sms", "the stagger unit serves at most 64 SMs", [&] {
    return problem_unless(!x.enabled || sm_count <= kStaggerMaxSms, "enabled",
                          "the stagger unit serves at most 64 SMs (sm.count <= 64)");
  });
}

StaggerIn stagger_csr(const GlobalSmoothingConfig& c) {
  StaggerIn in;
  in.enable = c.enabled;
  in.k_min = c.k_min;
  in.step_cycles = c.step_cycles;
  in.policy = c.policy;
  in.groups = c.groups;
  return in;
}

}  // namespace gpupm
