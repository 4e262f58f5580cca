#include "platform/smoothing_config.h"

#include <algorithm>
#include <cmath>

namespace gpupm {

namespace {
const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> n = {"uniform", "cumulative", "grouped"};
  return n;
}
}  // namespace

namespace {

void describe(ParamVisitor& v, LocalSmoothingConfig& x, const uint32_t& schedulers) {
  v.flag("enabled", x.enabled, "a droop predictor and dispatch throttle per SM");
  v.integer("t2", x.t2, 0, 255, "1/4 nJ", "increment threshold over 2 cycles");
  v.integer("t3", x.t3, 0, 255, "1/4 nJ", "increment threshold over 3 cycles");
  v.integer("t4", x.t4, 0, 255, "1/4 nJ", "increment threshold over 4 cycles");
  v.integer("max_block", x.max_block, 0, 7, "cycles", "consecutive fully throttled cycles before one instruction passes");
  v.rule("predictor_slots", "the droop predictor serves at most 4 issue slots", [&] {
    return problem_unless(!x.enabled || schedulers <= kDroopPredMaxSlots, "enabled",
                          "the droop predictor serves at most 4 issue slots (sm.schedulers <= 4)");
  });
}

void describe(ParamVisitor& v, GlobalSmoothingConfig& x, const uint32_t& sm_count) {
  v.flag("enabled", x.enabled, "the stagger unit in the GWDE");
  v.integer("report_period", x.report_period, 1, 16, "cycles", "between the SMs' active-warp reports");
  v.integer("window_slots", x.window_slots, 1, 3, "reports", "report slots a transition stays pending");
  v.integer("k_min", x.k_min, 1, 63, "SMs", "SMs going 0 -> >= 1 active warps within the window that trigger a stagger");
  v.integer("step_cycles", x.step_cycles, 0, 255, "cycles", "stagger step");
  v.choice_of("policy", x.policy, policy_names(), "how the stagger spreads the SMs");
  v.integer("groups", x.groups, 1, 7, "groups", "for the grouped policy");
  v.rule("stagger_sms", "the stagger unit serves at most 32 SMs", [&] {
    return problem_unless(!x.enabled || sm_count <= kStaggerMaxSms, "enabled",
                          "the stagger unit serves at most 32 SMs (sm.count <= 32)");
  });
}

}  // namespace

void describe(ParamVisitor& v, SmoothingConfig& c, const uint32_t& sm_count, const uint32_t& schedulers) {
  v.section("local", Presence::kOptional, "per-SM droop predictor", [&](ParamVisitor& s) { describe(s, c.local, schedulers); });
  v.section("global", Presence::kOptional, "chip-wide stagger unit", [&](ParamVisitor& s) { describe(s, c.global, sm_count); });
}

DroopPredIn droop_predictor_csr(const LocalSmoothingConfig& c, const PowerConfig& p) {
  auto w = [&](double nj) { return uint8_t(std::clamp(std::lround(nj * 4.0), 0L, 63L)); };
  DroopPredIn in;
  in.enable = c.enabled;
  in.weight[size_t(DispatchClass::kAlu)] = w(p.inst_nj + p.alu_nj);
  in.weight[size_t(DispatchClass::kSfu)] = w(p.inst_nj + p.sfu_nj);
  in.weight[size_t(DispatchClass::kLdst)] = w(p.inst_nj + p.ldst_nj);
  in.weight[size_t(DispatchClass::kOther)] = w(p.inst_nj);
  in.t2 = c.t2;
  in.t3 = c.t3;
  in.t4 = c.t4;
  in.max_block = c.max_block;
  return in;
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
