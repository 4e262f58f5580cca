// The gpupm program owns its simulation: it sets SystemC's global settings and
// runs one Gpu alone. A platform embedding the Gpu does both itself
// (docs/embedding.md); the model sets no global and never stops the simulation.
#pragma once

#include "gpupm/platform/gpu.h"

#include <stdexcept>

namespace gpupm {

// Once per process, before elaboration: femtosecond time resolution (clock
// periods like 1428.571 ps stay exact enough), SystemC errors as exceptions
// (exit 1 instead of abort), and no info chatter.
void prepare_systemc();

// A failure during the simulation (a fault of a program's kernel, a runaway,
// while_nonzero past its max): the cause alone, one line (exit 1).
struct SimulationFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Simulates until the workload finishes (then stops at once, so the report,
// trace and time stamp are those of the completion) or sim.max_sim_ms of
// simulated time have passed; true if it finished. SimulationFailure when a
// process threw (SystemC's wrapping taken off).
bool run_alone(Gpu& gpu);

}  // namespace gpupm
