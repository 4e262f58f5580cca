#include "gpupm/policy/dyncta/dyncta_policy.h"

namespace gpupm {

void DynCtaPolicy::on_start(PolicyContext& ctx) { sms_.assign(ctx.sm_count(), PerSm{}); }

void DynCtaPolicy::on_kernel_start(PolicyContext& ctx, const KernelLaunch& k) {
  max_ = ctx.occupancy_limit(k);
  for (uint32_t i = 0; i < sms_.size(); ++i) {
    sms_[i].limit = max_;
    ctx.set_cta_limit(i, 0);
  }
}

void DynCtaPolicy::on_epoch(PolicyContext& ctx, uint64_t cycle) {
  const uint64_t samples_per_period = s_.period / 128;
  for (uint32_t i = 0; i < sms_.size(); ++i) {
    WarpStateCounts w = ctx.sm(i).sample_states();
    if (w.active > 0 && w.issued == 0 && w.excess_alu == 0 && w.excess_mem == 0) ++sms_[i].idle_samples;
  }
  if ((cycle + 1) % s_.period != 0) return;
  Json limits = Json::array();
  for (uint32_t i = 0; i < sms_.size(); ++i) {
    PerSm& p = sms_[i];
    uint64_t stall = ctx.sm(i).counters().lsu.stall_cycles;
    uint64_t c_mem = stall - p.stall_at_start;
    uint64_t c_idle = p.idle_samples * (s_.period / samples_per_period);
    uint32_t next = p.limit;
    if (c_idle >= s_.t_idle) next = std::min(max_, p.limit + 1);
    else if (c_mem >= s_.t_mem_high) next = std::max(1u, p.limit - 1);
    else if (c_mem < s_.t_mem_low) next = std::min(max_, p.limit + 1);
    if (next != p.limit) {
      p.limit = next;
      ctx.set_cta_limit(i, next);
    }
    p.idle_samples = 0;
    p.stall_at_start = stall;
    limits.push_back(p.limit);
  }
  trace_.push_back({{"cycle", cycle}, {"num_blocks", limits}});
}

void describe(ParamVisitor& v, DynCtaSettings& s, const PolicyTarget&) {
  constexpr uint32_t kMost = 1u << 24;
  v.integer("period", s.period, 128, kMost, "SM cycles", "cycles between CTA decisions");
  v.rule("period_of_samples", "period is a multiple of 128 (the warp-state sample period)",
         [&s]() -> std::optional<ParamProblem> {
           if (s.period % 128 == 0) return std::nullopt;
           return ParamProblem{"period", "expected a multiple of 128 (the sample period)"};
         });
  v.integer("t_idle", s.t_idle, 0, kMost, "cycles", "idle cycles per period from which a CTA is added");
  v.integer("t_mem_low", s.t_mem_low, 0, kMost, "cycles", "memory-stall cycles per period below which a CTA is added");
  v.integer("t_mem_high", s.t_mem_high, 0, kMost, "cycles",
            "memory-stall cycles per period from which a CTA is removed");
}

Json DynCtaPolicy::describe() const {
  return {{"name", "dyncta"},
          {"period", s_.period},
          {"t_idle", s_.t_idle},
          {"t_mem_low", s_.t_mem_low},
          {"t_mem_high", s_.t_mem_high}};
}

}  // namespace gpupm
