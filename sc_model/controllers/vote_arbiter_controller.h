// The frequency manager's vote arbiter in the GPU config's "controller_impl"
// (Controller<>, controller.h): cpp steps VoteArbiter when votes arrive and
// advance()s it over the cycles in between (exact: n step()s without
// votes_valid); rtl clocks rtl/vote_arbiter.sv every cycle, advance(n) holding
// the last inputs with votes_valid low (the busy counters count every edge);
// lockstep compares all 13 outputs after every edge (block "vote_arbiter",
// SM -1). The RTL exists for the N_SMS verilated in rtl/rtl.cmake
// (GPUPM_RTL_CONFIGS).
#pragma once

#include "gpupm/common/controller_impl.h"
#include "gpupm/controllers/controller.h"
#include "gpupm/controllers/vote_arbiter_ports.h"

#include <cstdint>
#include <memory>
#include <string>

namespace gpupm {

using VoteArbiterController = Controller<VoteArbiterPorts>;

bool vote_arbiter_rtl_available(uint32_t n_sms, std::string* why = nullptr);

// Throws std::invalid_argument if the RTL is needed but unavailable.
std::unique_ptr<VoteArbiterController> make_vote_arbiter_controller(ControllerImpl impl, const VoteArbiterParams& p);

}  // namespace gpupm
