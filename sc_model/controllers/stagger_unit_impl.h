// The global stagger unit behind one interface, in the three implementations
// of the GPU config's "controller_impl" (common/controller_impl.h):
//
//   cpp       StaggerUnit: step() on the report strobes (and wherever the
//             caller likes), advance() over the cycles in between (exact:
//             StaggerUnit::advance is n step()s, no input is read off the strobe).
//   rtl       rtl/stagger_unit.sv, Verilated (plain C++), clocked every cycle:
//             step() is one edge with the given inputs, advance(n) is n edges
//             with the last step()'s inputs held. advance() keeps
//             StaggerUnit::advance's precondition (no strobe skipped; throws
//             std::logic_error), so the RTL sees the same inputs on every edge
//             that reads them.
//   lockstep  both, each edge on identical inputs (the C++ model step()ped every
//             cycle with the held inputs), every output (hold, trigger,
//             pending, last_active, triggers, report_count, each SM's
//             hold_count and age) compared after every edge; the first
//             difference throws LockstepMismatch (block "stagger_unit", SM -1).
//             The C++ outputs drive the caller.
//
// The RTL exists for the parameter sets verilated in rtl/rtl.cmake
// (GPUPM_RTL_CONFIGS): (N_SMS, REPORT_PERIOD, WINDOW_SLOTS) = (15, 10, 3),
// (32, 16, 3), (4, 1, 1).
#pragma once

#include "common/controller_impl.h"
#include "controllers/stagger_unit.h"

#include <cstdint>
#include <memory>
#include <string>

namespace gpupm {

class StaggerController {
 public:
  virtual ~StaggerController() = default;
  virtual const StaggerOut& step(const StaggerIn& in) = 0;  // one rising edge
  // n edges, no strobe skipped (rtl: clocked n times with the last inputs held).
  virtual void advance(uint32_t n) = 0;
  virtual uint32_t cycles_to_strobe() const = 0;
  virtual const StaggerOut& out() const = 0;
};

bool stagger_rtl_available(const StaggerParams& p, std::string* why = nullptr);

// Throws std::invalid_argument if the RTL is needed but unavailable.
std::unique_ptr<StaggerController> make_stagger_controller(ControllerImpl impl, const StaggerParams& p);

}  // namespace gpupm
