// The SM's local voltage smoothing (docs/papers.md#voltage-noise-local-smoothing):
// the GPU config's `smoothing.local` section, and the droop predictor's control
// registers (controllers/droop_predictor.h) it fills at each SM's dispatch unit.
#pragma once

#include "gpupm/common/param.h"
#include "gpupm/controllers/droop_predictor.h"

namespace gpupm {

struct LocalSmoothingConfig {
  bool enabled = false;
  // Increment thresholds over 2, 3, 4 cycles in 1/4 nJ: trained offline by
  // scripts/train_droop_predictor.py on the model's own traces (docs/voltage_noise.md).
  uint8_t t2 = 16, t3 = 22, t4 = 26;
  uint8_t max_block = 1;  // consecutive fully throttled cycles before one instruction passes
};

// Every field's name, range and description (common/param.h); the rule needs
// the SM's issue slots (the predictor serves at most kDroopPredMaxSlots).
void describe(ParamVisitor& v, LocalSmoothingConfig& c, const uint32_t& schedulers);

// Energy per dispatched instruction of each class (nJ): the power model's
// per-event energies, which the platform passes in.
struct DispatchEnergies {
  double inst_nj = 0, alu_nj = 0, sfu_nj = 0, ldst_nj = 0;
};

// The predictor's CSR fields: class weights (dispatch + the unit, 1/4 nJ, at most 63), thresholds.
DroopPredIn droop_predictor_csr(const LocalSmoothingConfig& c, const DispatchEnergies& e);

}  // namespace gpupm
