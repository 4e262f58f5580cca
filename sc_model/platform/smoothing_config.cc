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

SmoothingConfig parse_smoothing_config(JsonReader& r, uint32_t sm_count, uint32_t schedulers) {
  SmoothingConfig c;
  if (r.has("local")) {
    JsonReader l = r.object("local");
    LocalSmoothingConfig& x = c.local;
    x.enabled = l.get_bool("enabled", x.enabled);
    x.t2 = uint8_t(l.get_uint("t2", 0, 255, x.t2));
    x.t3 = uint8_t(l.get_uint("t3", 0, 255, x.t3));
    x.t4 = uint8_t(l.get_uint("t4", 0, 255, x.t4));
    x.max_block = uint8_t(l.get_uint("max_block", 0, 7, x.max_block));
    if (x.enabled && schedulers > kDroopPredMaxSlots)
      l.fail("enabled", "the droop predictor serves at most 4 issue slots (sm.schedulers <= 4)");
    l.finish();
  }
  if (r.has("global")) {
    JsonReader g = r.object("global");
    GlobalSmoothingConfig& x = c.global;
    x.enabled = g.get_bool("enabled", x.enabled);
    x.report_period = uint8_t(g.get_uint("report_period", 1, 16, x.report_period));
    x.window_slots = uint8_t(g.get_uint("window_slots", 1, 3, x.window_slots));
    x.k_min = uint8_t(g.get_uint("k_min", 1, 63, x.k_min));
    x.step_cycles = uint8_t(g.get_uint("step_cycles", 0, 255, x.step_cycles));
    const std::string p = g.get_enum("policy", policy_names(), policy_names()[size_t(x.policy)]);
    x.policy = StaggerPolicy(std::find(policy_names().begin(), policy_names().end(), p) - policy_names().begin());
    x.groups = uint8_t(g.get_uint("groups", 1, 7, x.groups));
    if (x.enabled && sm_count > kStaggerMaxSms)
      g.fail("enabled", "the stagger unit serves at most 32 SMs (sm.count <= 32)");
    g.finish();
  }
  return c;
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
