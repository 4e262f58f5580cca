#include "gpupm/sm/droop_throttle_config.h"

#include <algorithm>
#include <cmath>

namespace gpupm {

void describe(ParamVisitor& v, LocalSmoothingConfig& x, const uint32_t& schedulers) {
  v.flag("enabled", x.enabled, "a droop predictor and dispatch throttle per SM");
  v.integer("t2", x.t2, 0, 255, "1/4 nJ", "increment threshold over 2 cycles");
  v.integer("t3", x.t3, 0, 255, "1/4 nJ", "increment threshold over 3 cycles");
  v.integer("t4", x.t4, 0, 255, "1/4 nJ", "increment threshold over 4 cycles");
  v.integer("max_block", x.max_block, 0, 7, "cycles",
            "consecutive fully throttled cycles before one instruction passes");
  v.rule("predictor_slots", "the droop predictor serves at most 4 issue slots", [&] {
    return problem_unless(!x.enabled || schedulers <= kDroopPredMaxSlots, "enabled",
                          "the droop predictor serves at most 4 issue slots (sm.schedulers <= 4)");
  });
}

DroopPredIn droop_predictor_csr(const LocalSmoothingConfig& c, const DispatchEnergies& e) {
  auto w = [&](double nj) { return uint8_t(std::clamp(std::lround(nj * 4.0), 0L, 63L)); };
  DroopPredIn in;
  in.enable = c.enabled;
  in.weight[size_t(DispatchClass::kAlu)] = w(e.inst_nj + e.alu_nj);
  in.weight[size_t(DispatchClass::kSfu)] = w(e.inst_nj + e.sfu_nj);
  in.weight[size_t(DispatchClass::kLdst)] = w(e.inst_nj + e.ldst_nj);
  in.weight[size_t(DispatchClass::kOther)] = w(e.inst_nj);
  in.t2 = c.t2;
  in.t3 = c.t3;
  in.t4 = c.t4;
  in.max_block = c.max_block;
  return in;
}

}  // namespace gpupm
