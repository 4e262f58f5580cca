// Hierarchical voltage smoothing (voltage-noise paper Sec. 5; docs/papers.md#voltage-noise,
// sections 5.6-5.7): the GPU config's `smoothing` section. Both levels are off by default.
//   local   a droop predictor + dispatch throttle per SM (sm/droop_throttle_config.h)
//   global  the stagger unit in the GWDE (gwde/stagger_config.h)
#pragma once

#include "gpupm/common/param.h"
#include "gpupm/gwde/stagger_config.h"
#include "gpupm/power/power_config.h"
#include "gpupm/sm/droop_throttle_config.h"

namespace gpupm {

struct SmoothingConfig {
  LocalSmoothingConfig local;
  GlobalSmoothingConfig global;
};

// Every field's name, range and description (common/param.h); the rules need
// the SM count and schedulers (the blocks serve at most so many).
void describe(ParamVisitor& v, SmoothingConfig& c, const uint32_t& sm_count, const uint32_t& schedulers);

// The droop predictor's class energies: the power model's per-event energies.
DispatchEnergies dispatch_energies(const PowerConfig& p);

}  // namespace gpupm
