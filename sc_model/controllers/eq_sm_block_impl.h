// The Equalizer per-SM block behind one interface, in the three
// implementations of the GPU config's "controller_impl" (common/controller_impl.h):
//
//   cpp       EqSmBlock, as before: step() at the sample strobes, advance() over
//             the cycles in between (exact: EqSmBlock::advance is n step()s with
//             kernel_start low, and no other input is read off the strobes).
//   rtl       rtl/eq_sm_block.sv, Verilated (plain C++, native integer ports),
//             clocked every cycle: step() is one edge with the given inputs,
//             advance(n) is n edges with the last step()'s inputs held and
//             kernel_start low. The RTL is never skipped: its cycle counter and
//             sample pipeline must see every edge. advance() keeps EqSmBlock's
//             preconditions (no sample or epoch strobe skipped), so a caller
//             written against the C++ model gives the RTL exactly the same
//             inputs on every edge it reads them.
//   lockstep  both, each edge on identical inputs (the C++ model is step()ped
//             every cycle too, with the same held inputs, rather than
//             advance()d), all nine outputs compared after every edge; the
//             first difference throws LockstepMismatch (cycle, SM, signal,
//             expected = C++, actual = RTL). The C++ outputs drive the platform.
//
// The RTL exists for the parameter sets verilated in rtl/rtl.cmake
// (GPUPM_RTL_CONFIGS); eq_sm_rtl_available() says whether one matches.
#pragma once

#include "common/controller_impl.h"
#include "controllers/eq_sm_block.h"

#include <memory>
#include <string>

namespace gpupm {

class EqSmController {
 public:
  virtual ~EqSmController() = default;
  // One rising SM-clock edge with these inputs (EqSmBlock::step).
  virtual const EqSmOut& step(const EqSmIn& in) = 0;
  // n edges without a sample or epoch strobe (EqSmBlock::advance; same preconditions, same exceptions).
  virtual void advance(uint32_t n) = 0;
  virtual uint32_t cycles_to_next_sample() const = 0;
  virtual const EqSmOut& out() const = 0;
};

// False (and `why` says which parameter sets exist) when no Verilated
// eq_sm_block matches `p`, or the build has no Verilator.
bool eq_sm_rtl_available(const EqSmParams& p, std::string* why = nullptr);

// `sm` names the block in mismatch reports, VCD files and the fault hook.
// Throws std::invalid_argument if the RTL is needed but unavailable.
std::unique_ptr<EqSmController> make_eq_sm_controller(ControllerImpl impl, const EqSmParams& p, uint32_t sm);

}  // namespace gpupm
