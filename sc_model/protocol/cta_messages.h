// Messages between the GWDE, the SMs and the controllers (payload extensions).
#pragma once

#include "gpupm/protocol/message.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace gpupm {

struct KernelLaunch;  // workload/kernel_profile.h: the messages carry it, never look inside

// GWDE -> SM (cta_in)
struct CtaLaunchMsg : Message<CtaLaunchMsg> {
  std::shared_ptr<const KernelLaunch> launch;
  uint32_t cta = 0;                                     // index in the grid
  sc_core::sc_time not_before = sc_core::SC_ZERO_TIME;  // reaches the SM then (serialised dispatch)
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
  bool ctas_too = false;  // CTAs arriving meanwhile start after the hold too (the global stagger)
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
// SMs an application (index in Workload::apps) may use, for all its kernels (and
// ANDed with a kernel's SmMaskMsg mask). Application masks are disjoint. An SM taken
// out of an app's mask drains (keeps its CTAs, gets no new ones of that app); an
// SM in no app's mask gets no work (disable it with SmEnableMsg to gate it).
// An overlapping or malformed mask is ignored with an error response (send()
// returns it).
// Empty mask: the default (one app: all SMs; two: app 0 the first count/2 SMs,
// app 1 the rest).
struct SmAppMaskMsg : Message<SmAppMaskMsg> {
  uint32_t app = 0;
  std::vector<bool> mask;
};

}  // namespace gpupm
