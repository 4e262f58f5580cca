// Static operating points: fixed SM and memory V/F levels and an optional fixed
// number of CTAs per SM, set once at time 0 (no transition).
#pragma once

#include "gpupm/policy/policy.h"
#include "gpupm/policy/shared/oracle/static_point_policy.h"

namespace gpupm {

// policy.sm_level, policy.mem_level and policy.ctas_per_sm; the named points
// (sm-high, mem-low, ...) preset a level.
struct StaticSettings {
  PointLevels levels;
};
void describe(ParamVisitor& v, StaticSettings& s, const PolicyTarget& t);

class StaticPolicy : public Policy {
 public:
  StaticPolicy(std::string name, const StaticSettings& s, const DvfsConfig& dvfs);
  std::string name() const override { return name_; }
  void on_start(PolicyContext& ctx) override;
  Json describe() const override;
  bool handles_concurrent_apps() const override { return true; }  // the same fixed point for every SM and kernel

 private:
  std::string name_;
  uint32_t sm_level_, mem_level_, ctas_;
  const DvfsConfig& dvfs_;
};

}  // namespace gpupm
