// Hierarchical voltage smoothing (voltage-noise paper Sec. 5; docs/papers.md#voltage-noise,
// sections 5.6-5.7): the GPU config's `smoothing` section. Both levels are off by default.
//   local   a droop predictor + dispatch throttle per SM (controllers/droop_predictor.h)
//   global  the stagger unit in the GWDE (controllers/stagger_unit.h)
#pragma once

#include "common/json_reader.h"
#include "common/param.h"
#include "controllers/stagger_unit.h"
#include "power/power_config.h"
#include "controllers/droop_predictor.h"

namespace gpupm {

struct LocalSmoothingConfig {
  bool enabled = false;
  // Increment thresholds over 2, 3, 4 cycles in 1/4 nJ: trained offline by
  // scripts/train_droop_predictor.py on the model's own traces (docs/voltage_noise.md).
  uint8_t t2 = 16, t3 = 22, t4 = 26;
  uint8_t max_block = 1;  // consecutive fully throttled cycles before one instruction passes
};

struct GlobalSmoothingConfig {
  bool enabled = false;
  uint8_t report_period = 10;  // cycles between the SMs' active-warp reports
  uint8_t window_slots = 3;    // report slots a transition stays pending (30 cycles)
  uint8_t k_min = 9;           // SMs going 0 -> >= 1 active warps within the window
  uint8_t step_cycles = 50;    // stagger step
  StaggerPolicy policy = StaggerPolicy::kCumulative;
  uint8_t groups = 2;          // for the grouped policy
};

struct SmoothingConfig {
  LocalSmoothingConfig local;
  GlobalSmoothingConfig global;
};

// Every field's name, range and description (common/param.h); the rules need
// the SM count and schedulers (the blocks serve at most so many).
void describe(ParamVisitor& v, SmoothingConfig& c, const uint32_t& sm_count, const uint32_t& schedulers);

// The predictor's CSR fields: class weights from the power model's per-event
// energies (dispatch + register file + the unit, 1/4 nJ, at most 63), thresholds.
DroopPredIn droop_predictor_csr(const LocalSmoothingConfig& c, const PowerConfig& p);
StaggerIn stagger_csr(const GlobalSmoothingConfig& c);

}  // namespace gpupm
