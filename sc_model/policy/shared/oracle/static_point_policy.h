// One static point of the configuration space the oracles search
// (docs/papers.md#shared-configuration-space: SM count x SM
// V/F x memory V/F x CTAs per SM), held for the whole run: SMs [sms, N) are
// power-gated from the start, the V/F levels are set at once, the CTA limit
// applies to every SM. `gpupm run --policy static-point --set policy.sms=20 ...`
#pragma once

#include "policy/policy.h"

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

// Reads policy.sms, policy.sm_level, policy.mem_level (level names; default the
// nominal ones) and policy.ctas_per_sm.
// sm_count bounds `sms` (0: unknown, up to 1024).
ConfigPoint parse_config_point(JsonReader& p, const DvfsConfig& dvfs, uint32_t sm_count = 0);

}  // namespace gpupm
