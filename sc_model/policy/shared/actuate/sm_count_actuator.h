// The SM-count actuator shared by the SM-count controllers (core shut-down;
// later Harmonia's CU count and SM allocation): it keeps SMs [0, n) running and
// puts SMs [n, N) in one of two states, through the GWDE and the SMs' issue
// hold only (PolicyContext):
//   paused    no issue and no new CTAs; resident CTAs stay (CTAs cannot be
//             pre-empted or migrated), so a later larger n resumes them at once.
//             Used while searching. The SM stays powered and clocked.
//   draining  no new CTAs; resident CTAs run to completion; the GWDE power-gates
//             the SM once it is empty (gated SMs leak nothing).
// wake_all() re-enables every SM and powers gated ones up at once, even with no
// CTA for them (early wake-up: the wake latency overlaps the kernel's tail).
#pragma once

#include "gpupm/policy/policy.h"

#include <cstdint>
#include <vector>

namespace gpupm {

enum class SmMode : uint8_t { kActive, kPaused, kDraining };

class SmCountActuator {
 public:
  // All SMs active (issue released, enabled for dispatch); the start of a kernel.
  void reset(PolicyContext& ctx);
  // Takes every SM as active without a message (they are, at the start of a run):
  // an enable message makes the GWDE dispatch to that SM at once, depth-first.
  void adopt_all_active(const PolicyContext& ctx);
  // SMs [0, n) active; SMs [n, N) paused (how = kPaused) or draining then gated (kDraining).
  void set_active(PolicyContext& ctx, uint32_t n, SmMode how);
  // Every SM enabled and running; gated SMs power up now.
  void wake_all(PolicyContext& ctx);
  // Resumes paused SMs (issue released) without letting them take new CTAs: they
  // drain and gate. Used when nothing is left to dispatch.
  void release_paused(PolicyContext& ctx);

  uint32_t active() const { return active_; }
  uint32_t count(SmMode m) const;
  SmMode mode(uint32_t sm) const { return modes_.at(sm); }
  std::vector<bool> active_set() const;  // true for SMs in kActive
  uint32_t size() const { return uint32_t(modes_.size()); }

 private:
  void apply(PolicyContext& ctx, uint32_t sm, SmMode m, bool wake_now = false);
  std::vector<SmMode> modes_;
  uint32_t active_ = 0;
};

}  // namespace gpupm
