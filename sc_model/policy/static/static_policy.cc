#include "policy/static/static_policy.h"

namespace gpupm {

StaticPolicy::StaticPolicy(std::string name, uint32_t sm_level, uint32_t mem_level, uint32_t ctas_per_sm,
                           const DvfsConfig& dvfs)
    : name_(std::move(name)), sm_level_(sm_level), mem_level_(mem_level), ctas_(ctas_per_sm), dvfs_(dvfs) {}

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
