#include "gpupm/app/standalone.h"

#include <cstring>

namespace gpupm {

void prepare_systemc() {
  using namespace sc_core;
  sc_set_time_resolution(1, SC_FS);
  sc_report_handler::set_actions(SC_ERROR, SC_THROW);
  sc_report_handler::set_actions(SC_FATAL, SC_THROW);
  sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
}

bool run_alone(Gpu& gpu) {
  gpu.on_done = [](Gpu&) { sc_core::sc_stop(); };
  try {
    sc_core::sc_start(sc_core::sc_time(gpu.config().sim.max_sim_ms, sc_core::SC_MS));
  } catch (const sc_core::sc_report& r) {
    // What a process threw reaches here wrapped in SystemC's report (its id,
    // "In file:", "In process:" lines); the message alone is the cause.
    if (std::strcmp(r.get_msg_type(), sc_core::SC_ID_SIMULATION_UNCAUGHT_EXCEPTION_) == 0)
      throw SimulationFailure(r.get_msg());
    throw;
  }
  return gpu.done();
}

}  // namespace gpupm
