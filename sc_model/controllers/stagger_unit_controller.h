// The global stagger unit in the GPU config's "controller_impl" (Controller<>,
// controller.h): cpp steps StaggerUnit on the report strobes (and wherever the
// caller likes) and advance()s it in between (exact: no input is read off the
// strobe); rtl clocks rtl/stagger_unit.sv every cycle with the last inputs
// held; advance() keeps StaggerUnit::advance's precondition (no strobe skipped;
// std::logic_error), so the RTL sees the same inputs on every edge that reads
// them; lockstep compares every output (hold, trigger, pending, last_active,
// triggers, report_count, each SM's hold_count and age) after every edge
// (block "stagger_unit", SM -1). cycles_to_strobe(): edges to the next report.
//
// The RTL exists for the parameter sets verilated in rtl/rtl.cmake
// (GPUPM_RTL_CONFIGS).
#pragma once

#include "gpupm/common/controller_impl.h"
#include "gpupm/controllers/controller.h"
#include "gpupm/controllers/stagger_unit_ports.h"

#include <memory>
#include <string>

namespace gpupm {

using StaggerController = Controller<StaggerPorts>;

bool stagger_rtl_available(const StaggerParams& p, std::string* why = nullptr);

// Throws std::invalid_argument if the RTL is needed but unavailable.
std::unique_ptr<StaggerController> make_stagger_controller(ControllerImpl impl, const StaggerParams& p);

}  // namespace gpupm
