#include "policy/shared/oracle/static_point_policy.h"

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

ConfigPoint parse_config_point(JsonReader& p, const DvfsConfig& dvfs, uint32_t sm_count) {
  auto level = [&](const char* key, const DomainDvfs& d) {
    std::vector<std::string> names;
    for (const auto& l : d.levels) names.push_back(l.name);
    return uint32_t(d.level_index(p.get_enum(key, names, d.levels[d.nominal].name)));
  };
  ConfigPoint s;
  s.sms = uint32_t(p.get_uint("sms", 0, sm_count ? sm_count : 1024, 0));  // 0: all SMs
  s.sm_level = level("sm_level", dvfs[Domain::Sm]);
  s.mem_level = level("mem_level", dvfs[Domain::Mem]);
  s.ctas_per_sm = uint32_t(p.get_uint("ctas_per_sm", 0, 64, 0));
  return s;
}

}  // namespace gpupm
