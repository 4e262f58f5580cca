// One static point of the configuration space the oracles search
// (docs/papers.md#shared-configuration-space: SM count x SM
// V/F x memory V/F x CTAs per SM), held for the whole run: SMs [sms, N) are
// power-gated from the start, the V/F levels are set at once, the CTA limit
// applies to every SM. `gpupm run --policy static-point --set policy.sms=20 ...`
#pragma once

#include "gpupm/policy/policy.h"
#include "gpupm/policy/policy_params.h"

namespace gpupm {

struct ConfigPoint {
  uint32_t sms = 0;  // active SMs; 0: all
  uint32_t sm_level = 0, mem_level = 0;
  uint32_t ctas_per_sm = 0;  // 0: the kernel's maximum
};

class StaticPointPolicy : public Policy {
 public:
  StaticPointPolicy(const ConfigPoint& p, const DvfsConfig& dvfs) : p_(p), dvfs_(dvfs) {}
  std::string name() const override { return "static-point"; }
  void on_start(PolicyContext& ctx) override;
  void on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) override;
  Json describe() const override;

 private:
  ConfigPoint p_;
  DvfsConfig dvfs_;
};

// A point's V/F levels and CTA limit: policy.sm_level, policy.mem_level (level
// names of the GPU config) and policy.ctas_per_sm. A level still at
// kPresetLevel starts at its preset (a level name; "": the nominal level).
struct PointLevels {
  uint32_t sm_level = kPresetLevel, mem_level = kPresetLevel;  // indices into the GPU's V/F tables
  uint32_t ctas_per_sm = 0;                                    // 0: the kernel's occupancy limit
};
void describe_levels(ParamVisitor& v, PointLevels& s, const PolicyTarget& t, const char* sm_preset,
                     const char* mem_preset);

// policy.sms, then the point's levels (default: the nominal ones).
struct StaticPointSettings {
  uint32_t sms = 0;  // 0: all
  PointLevels levels;
  ConfigPoint point() const { return {sms, levels.sm_level, levels.mem_level, levels.ctas_per_sm}; }
};
void describe(ParamVisitor& v, StaticPointSettings& s, const PolicyTarget& t);

}  // namespace gpupm
