// The per-SM droop predictor behind one interface, in the three
// implementations of the GPU config's "controller_impl" (common/controller_impl.h):
//
//   cpp       DroopPredictor.
//   rtl       rtl/droop_predictor.sv, Verilated (plain C++, native integer
//             ports): eval() applies the inputs and evaluates without a clock
//             edge (admit/predict/throttled are combinational), step() is one
//             edge, idle(n) is n edges with cand_valid low (other inputs held).
//   lockstep  both on identical inputs; all seven outputs compared on every
//             eval() and after every edge (idle() steps the C++ model n times
//             rather than DroopPredictor::idle, so every edge is compared); the
//             first difference throws LockstepMismatch (block
//             "droop_predictor", SM, cycle, signal, expected = C++, actual =
//             RTL). The C++ results drive the caller.
//
// `cycle` in a mismatch counts the block's edges since reset: for eval() the
// cycle being evaluated, for step() the one its edge ends. The RTL exists for
// the SLOTS verilated in rtl/rtl.cmake (GPUPM_RTL_CONFIGS): 2, 1, 4.
#pragma once

#include "common/controller_impl.h"
#include "controllers/droop_predictor.h"

#include <cstdint>
#include <memory>
#include <string>

namespace gpupm {

class DroopPredController {
 public:
  virtual ~DroopPredController() = default;
  // Combinational outputs this cycle (no edge); may be called several times per
  // cycle with growing cand_valid.
  virtual DroopPredOut eval(const DroopPredIn& in) = 0;
  // The edge ending this cycle (DroopPredictor::step).
  virtual DroopPredOut step(const DroopPredIn& in) = 0;
  // n edges with cand_valid = 0.
  virtual void idle(uint64_t n) = 0;
};

// False (and `why` says which parameter sets exist) when no Verilated
// droop_predictor matches `p`, or the build has no Verilator.
bool droop_pred_rtl_available(const DroopPredParams& p, std::string* why = nullptr);

// `sm` names the block in mismatch reports, VCD files (droop_predictor_sm<i>.vcd)
// and the fault hook. Throws std::invalid_argument if the RTL is needed but unavailable.
std::unique_ptr<DroopPredController> make_droop_pred_controller(ControllerImpl impl, const DroopPredParams& p,
                                                                uint32_t sm);

}  // namespace gpupm
