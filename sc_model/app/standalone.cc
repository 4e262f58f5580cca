#include "app/standalone.h"

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
  sc_core::sc_start(sc_core::sc_time(gpu.config().sim.max_sim_ms, sc_core::SC_MS));
  return gpu.done();
}

}  // namespace gpupm
