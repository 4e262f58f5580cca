// The frequency manager's vote arbiter behind one interface, in the three
// implementations of the GPU config's "controller_impl" (common/controller_impl.h):
//
//   cpp       VoteArbiter, as before: step() when votes arrive, advance() over
//             the cycles in between (exact: n step()s without votes_valid).
//   rtl       rtl/vote_arbiter.sv, Verilated (plain C++, native integer ports),
//             clocked every cycle: step() is one edge with the given inputs,
//             advance(n) is n edges with the last step()'s inputs held and
//             votes_valid low (the busy counters count every edge).
//   lockstep  both, each edge on identical inputs (the C++ model step()ped every
//             cycle with the held inputs), all 13 outputs compared after every
//             edge; the first difference throws LockstepMismatch. The C++
//             outputs drive the platform.
//
// The RTL exists for the N_SMS verilated in rtl/rtl.cmake (GPUPM_RTL_CONFIGS).
#pragma once

#include "common/controller_impl.h"
#include "controllers/vote_arbiter.h"

#include <memory>
#include <string>

namespace gpupm {

class VoteArbiterController {
 public:
  virtual ~VoteArbiterController() = default;
  virtual const VoteArbiterOut& step(const VoteArbiterIn& in) = 0;  // one rising edge
  virtual void advance(uint32_t n) = 0;                             // n edges without votes_valid
  virtual const VoteArbiterOut& out() const = 0;
};

bool vote_arbiter_rtl_available(uint32_t n_sms, std::string* why = nullptr);

// Throws std::invalid_argument if the RTL is needed but unavailable.
std::unique_ptr<VoteArbiterController> make_vote_arbiter_controller(ControllerImpl impl, const VoteArbiterParams& p);

}  // namespace gpupm
