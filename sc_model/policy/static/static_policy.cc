#include "gpupm/policy/static/static_policy.h"

namespace gpupm {

namespace {

// Named static points: {name, SM level, memory level}; "" means nominal.
struct StaticPoint {
  const char* name;
  const char* sm;
  const char* mem;
};
constexpr StaticPoint kStaticPoints[] = {
    {"baseline", "", ""},     {"sm-high", "high", ""}, {"sm-low", "low", ""},
    {"mem-high", "", "high"}, {"mem-low", "", "low"},
};

StaticPoint preset_of(const std::string& name) {
  for (const StaticPoint& p : kStaticPoints)
    if (name == p.name) return p;
  return {"", "", ""};
}

}  // namespace

void describe(ParamVisitor& v, StaticSettings& s, const PolicyTarget& t) {
  const StaticPoint preset = preset_of(t.name);
  describe_levels(v, s.levels, t, preset.sm, preset.mem);
}

StaticPolicy::StaticPolicy(std::string name, const StaticSettings& s, const DvfsConfig& dvfs)
    : name_(std::move(name)),
      sm_level_(s.levels.sm_level),
      mem_level_(s.levels.mem_level),
      ctas_(s.levels.ctas_per_sm),
      dvfs_(dvfs) {}

void StaticPolicy::on_start(PolicyContext& ctx) {
  ctx.request_level(Domain::Sm, sm_level_, true);
  ctx.request_level(Domain::Mem, mem_level_, true);
  if (ctas_)
    for (uint32_t i = 0; i < ctx.sm_count(); ++i) ctx.set_cta_limit(i, ctas_);
}

Json StaticPolicy::describe() const {
  return {{"name", name_},
          {"sm_level", dvfs_[Domain::Sm].levels[sm_level_].name},
          {"mem_level", dvfs_[Domain::Mem].levels[mem_level_].name},
          {"ctas_per_sm", ctas_}};
}

}  // namespace gpupm
