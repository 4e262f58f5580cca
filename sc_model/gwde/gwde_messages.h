// Messages between the GWDE, the SMs and the controllers (payload extensions).
#pragma once

#include "common/messages.h"
#include "workload/kernel_profile.h"

#include <memory>

namespace gpupm {

// GWDE -> SM (cta_in)
struct CtaLaunchMsg : Message<CtaLaunchMsg> {
  std::shared_ptr<const KernelLaunch> launch;
  uint32_t cta = 0;  // index in the grid
};
struct CtaPauseMsg : Message<CtaPauseMsg> {
  const KernelLaunch* launch = nullptr;  // with cta: CTA numbers repeat across kernels
  uint32_t cta = 0;
  bool pause = true;  // false: unpause
};
struct SmPowerMsg : Message<SmPowerMsg> {
  bool gated = false;
};

// SM -> GWDE (gwde_out)
struct CtaDoneMsg : Message<CtaDoneMsg> {
  uint32_t sm = 0;
  uint32_t cta = 0;
  const KernelLaunch* launch = nullptr;
};

// Controller -> SM (ctrl_in): no issue before the given SM cycle (start delay,
// throttling). A later message replaces an earlier one.
struct IssueHoldMsg : Message<IssueHoldMsg> {
  uint64_t until_cycle = 0;
};

}  // namespace gpupm

namespace gpupm {

// Controller -> GWDE (ctrl_in)
struct CtaLimitMsg : Message<CtaLimitMsg> {  // unpaused CTAs wanted on an SM; 0: the kernel's maximum
  uint32_t sm = 0;
  uint32_t limit = 0;
};
struct SmEnableMsg : Message<SmEnableMsg> {  // a disabled SM gets no new CTAs; gated once drained
  uint32_t sm = 0;
  bool enabled = true;
  bool gate_when_idle = true;  // power-gate it once it has no CTAs left
  bool wake_now = false;       // enabled and gated: power up now even with no CTA to give it
                               // (early wake-up: the latency overlaps a kernel's tail)
};
struct SmMaskMsg : Message<SmMaskMsg> {  // SMs a kernel (by index in the workload) may use
  uint32_t kernel_index = 0;
  std::vector<bool> mask;
};

}  // namespace gpupm
