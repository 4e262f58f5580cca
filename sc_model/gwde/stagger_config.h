// The GWDE's global voltage smoothing (docs/papers.md#voltage-noise-global-smoothing):
// the GPU config's `smoothing.global` section, and the stagger unit's control
// registers (controllers/stagger_unit.h) it fills.
#pragma once

#include "gpupm/common/param.h"
#include "gpupm/controllers/stagger_unit.h"

namespace gpupm {

struct GlobalSmoothingConfig {
  bool enabled = false;
  uint8_t report_period = 10;  // cycles between the SMs' active-warp reports
  uint8_t window_slots = 3;    // report slots a transition stays pending (30 cycles)
  uint8_t k_min = 9;           // SMs going 0 -> >= 1 active warps within the window
  uint8_t step_cycles = 50;    // stagger step
  StaggerPolicy policy = StaggerPolicy::kCumulative;
  uint8_t groups = 2;  // for the grouped policy
};

// Every field's name, range and description (common/param.h); the rule needs
// the SM count (the unit serves at most kStaggerMaxSms).
void describe(ParamVisitor& v, GlobalSmoothingConfig& c, const uint32_t& sm_count);

// The stagger unit's CSR fields.
StaggerIn stagger_csr(const GlobalSmoothingConfig& c);

}  // namespace gpupm
