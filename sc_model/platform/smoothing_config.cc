#include "gpupm/platform/smoothing_config.h"

namespace gpupm {

void describe(ParamVisitor& v, SmoothingConfig& c, const uint32_t& sm_count, const uint32_t& schedulers) {
  v.section("local", Presence::kOptional, "per-SM droop predictor",
            [&](ParamVisitor& s) { describe(s, c.local, schedulers); });
  v.section("global", Presence::kOptional, "chip-wide stagger unit",
            [&](ParamVisitor& s) { describe(s, c.global, sm_count); });
}

DispatchEnergies dispatch_energies(const PowerConfig& p) { return {p.inst_nj, p.alu_nj, p.sfu_nj, p.ldst_nj}; }

}  // namespace gpupm
