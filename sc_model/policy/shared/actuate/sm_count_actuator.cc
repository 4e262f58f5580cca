#include "gpupm/policy/shared/actuate/sm_count_actuator.h"

#include <algorithm>
#include <limits>

namespace gpupm {

namespace {
constexpr uint64_t kForever = std::numeric_limits<uint64_t>::max();
}

void SmCountActuator::apply(PolicyContext& ctx, uint32_t sm, SmMode m, bool wake_now) {
  switch (m) {
    case SmMode::kActive:
      ctx.hold_issue(sm, 0);
      if (wake_now) {
        ctx.wake_sm(sm);
      } else {
        ctx.set_sm_enabled(sm, true);
      }
      break;
    case SmMode::kPaused:
      ctx.set_sm_enabled(sm, false, false);  // no new CTAs, not gated
      ctx.hold_issue(sm, kForever);
      break;
    case SmMode::kDraining:
      ctx.set_sm_enabled(sm, false, true);  // gated once its CTAs are done
      ctx.hold_issue(sm, 0);
      break;
  }
  modes_[sm] = m;
}

void SmCountActuator::reset(PolicyContext& ctx) {
  modes_.assign(ctx.sm_count(), SmMode::kActive);
  for (uint32_t i = 0; i < ctx.sm_count(); ++i) apply(ctx, i, SmMode::kActive);
  active_ = ctx.sm_count();
}

void SmCountActuator::adopt_all_active(const PolicyContext& ctx) {
  modes_.assign(ctx.sm_count(), SmMode::kActive);
  active_ = ctx.sm_count();
}

void SmCountActuator::set_active(PolicyContext& ctx, uint32_t n, SmMode how) {
  if (modes_.size() != ctx.sm_count()) reset(ctx);
  n = std::clamp<uint32_t>(n, 1, ctx.sm_count());
  for (uint32_t i = 0; i < ctx.sm_count(); ++i) {
    SmMode want = i < n ? SmMode::kActive : how;
    if (modes_[i] != want) apply(ctx, i, want);
  }
  active_ = n;
}

void SmCountActuator::wake_all(PolicyContext& ctx) {
  if (modes_.size() != ctx.sm_count()) modes_.assign(ctx.sm_count(), SmMode::kDraining);
  for (uint32_t i = 0; i < ctx.sm_count(); ++i)
    if (modes_[i] != SmMode::kActive) apply(ctx, i, SmMode::kActive, true);
  active_ = ctx.sm_count();
}

void SmCountActuator::release_paused(PolicyContext& ctx) {
  for (uint32_t i = 0; i < modes_.size(); ++i)
    if (modes_[i] == SmMode::kPaused) apply(ctx, i, SmMode::kDraining);
}

uint32_t SmCountActuator::count(SmMode m) const { return uint32_t(std::count(modes_.begin(), modes_.end(), m)); }

std::vector<bool> SmCountActuator::active_set() const {
  std::vector<bool> v(modes_.size());
  for (size_t i = 0; i < modes_.size(); ++i) v[i] = modes_[i] == SmMode::kActive;
  return v;
}

}  // namespace gpupm
