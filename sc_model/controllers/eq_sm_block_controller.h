// The Equalizer per-SM block in the GPU config's "controller_impl"
// (Controller<>, controller.h): cpp steps EqSmBlock at the sample strobes and
// advance()s it over the cycles in between (exact: n step()s with
// kernel_start low, no other input read off the strobes); rtl clocks
// rtl/eq_sm_block.sv every cycle, advance(n) holding the last inputs with
// kernel_start low and keeping EqSmBlock's preconditions (no sample or epoch
// strobe skipped); lockstep compares all nine outputs after every edge (block
// "eq_sm_block", SM). cycles_to_strobe(): edges to the next sample strobe.
//
// The RTL exists for the parameter sets verilated in rtl/rtl.cmake
// (GPUPM_RTL_CONFIGS); eq_sm_rtl_available() says whether one matches.
#pragma once

#include "gpupm/common/controller_impl.h"
#include "gpupm/controllers/controller.h"
#include "gpupm/controllers/eq_sm_block_ports.h"

#include <memory>
#include <string>

namespace gpupm {

using EqSmController = Controller<EqSmPorts>;

// False (and `why` says which parameter sets exist) when no Verilated
// eq_sm_block matches `p`, or the build has no Verilator.
bool eq_sm_rtl_available(const EqSmParams& p, std::string* why = nullptr);

// `sm` names the block in mismatch reports, VCD files and the fault hook.
// Throws std::invalid_argument if the RTL is needed but unavailable.
std::unique_ptr<EqSmController> make_eq_sm_controller(ControllerImpl impl, const EqSmParams& p, uint32_t sm);

}  // namespace gpupm
