// Static operating points: fixed SM and memory V/F levels and an optional fixed
// number of CTAs per SM, set once at time 0 (no transition).
#pragma once

#include "policy/policy.h"

namespace gpupm {

class StaticPolicy : public Policy {
 public:
  StaticPolicy(std::string name, uint32_t sm_level, uint32_t mem_level, uint32_t ctas_per_sm, const DvfsConfig& dvfs);
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
