#include "gpupm/policy/shared/oracle/static_point_policy.h"

namespace gpupm {

void StaticPointPolicy::on_start(PolicyContext& ctx) {
  ctx.request_level(Domain::Sm, p_.sm_level, true);
  ctx.request_level(Domain::Mem, p_.mem_level, true);
  if (p_.sms > ctx.sm_count())
    throw InputError("policy", "sms", "the GPU has " + std::to_string(ctx.sm_count()) + " SMs");
  for (uint32_t i = 0; i < ctx.sm_count(); ++i) {
    if (p_.ctas_per_sm) ctx.set_cta_limit(i, p_.ctas_per_sm);
    if (p_.sms && i >= p_.sms) ctx.set_sm_enabled(i, false, true);  // empty: gated at once
  }
}

void StaticPointPolicy::on_kernel_start(PolicyContext& ctx, const KernelLaunch&) {
  // The GWDE keeps per-SM state across kernels; nothing to redo. Kept for clarity
  // of the schedule: the point holds for every kernel.
  (void)ctx;
}

Json StaticPointPolicy::describe() const {
  return {{"name", name()},
          {"sms", p_.sms},
          {"sm_level", dvfs_[Domain::Sm].levels[p_.sm_level].name},
          {"mem_level", dvfs_[Domain::Mem].levels[p_.mem_level].name},
          {"ctas_per_sm", p_.ctas_per_sm}};
}

void describe_levels(ParamVisitor& v, PointLevels& s, const PolicyTarget& t, const char* sm_preset,
                     const char* mem_preset) {
  level_param(v, "sm_level", s.sm_level, t.dvfs[Domain::Sm], sm_preset, "the SM domain's V/F level for the whole run");
  level_param(v, "mem_level", s.mem_level, t.dvfs[Domain::Mem], mem_preset,
              "the memory domain's V/F level for the whole run");
  v.integer("ctas_per_sm", s.ctas_per_sm, 0, 64, "CTAs", "CTAs per SM at most (0: the kernel's occupancy limit)");
}

void describe(ParamVisitor& v, StaticPointSettings& s, const PolicyTarget& t) {
  const uint32_t sm_count = t.ctl.sm_count ? t.ctl.sm_count : 1024;  // 0: unknown
  v.integer("sms", s.sms, 0, sm_count, "SMs", "SMs [0, sms) run, the others are power-gated from the start (0: all)");
  describe_levels(v, s.levels, t, "", "");
}

}  // namespace gpupm
