// The per-SM droop predictor in the GPU config's "controller_impl"
// (Controller<>, controller.h): cpp is DroopPredictor; rtl is
// rtl/droop_predictor.sv: eval() applies the inputs and evaluates without a
// clock edge (admit/predict/throttled are combinational), step() is one edge,
// advance(n) is n edges with cand_valid low (other inputs held); lockstep
// compares all seven outputs on every eval() and after every edge (advance()
// steps the C++ model n times rather than DroopPredictor::idle, so every edge
// is compared; block "droop_predictor", SM, cycle, signal).
//
// `cycle` in a mismatch counts the block's edges since reset: for eval() the
// cycle being evaluated, for step() the one its edge ends. The RTL exists for
// the SLOTS verilated in rtl/rtl.cmake (GPUPM_RTL_CONFIGS).
#pragma once

#include "gpupm/common/controller_impl.h"
#include "gpupm/controllers/controller.h"
#include "gpupm/controllers/droop_predictor_ports.h"

#include <cstdint>
#include <memory>
#include <string>

namespace gpupm {

using DroopPredController = Controller<DroopPredPorts>;

// False (and `why` says which parameter sets exist) when no Verilated
// droop_predictor matches `p`, or the build has no Verilator.
bool droop_pred_rtl_available(const DroopPredParams& p, std::string* why = nullptr);

// `sm` names the block in mismatch reports, VCD files (droop_predictor_sm<i>.vcd)
// and the fault hook. Throws std::invalid_argument if the RTL is needed but unavailable.
std::unique_ptr<DroopPredController> make_droop_pred_controller(ControllerImpl impl, const DroopPredParams& p,
                                                                uint32_t sm);

}  // namespace gpupm
