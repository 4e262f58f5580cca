// DVFS test fixtures: a three-level V/F table like the GTX480's (SM
// 595/700/805 MHz at 0.85/1.0/1.15 V, 512-cycle transitions), with the memory
// levels a test needs; and a bench with the SM and memory clocks (700 / 924
// MHz), a FrequencyManager on that table and a VoltageRegulator, driven by the
// test's script (ScBench).
#pragma once

#include "gpupm/clock/clock_domain.h"
#include "gpupm/freq/dvfs_config.h"
#include "gpupm/freq/frequency_manager.h"
#include "gpupm/vr/voltage_regulator.h"

#include "support/sc_bench.h"

#include <tlm_utils/simple_initiator_socket.h>

namespace gpupm::test {

inline DvfsConfig three_level_dvfs(double mem_low_mhz, double mem_high_mhz) {
  DvfsConfig c;
  c.domain[0].levels = {{"low", 595, 0.85}, {"normal", 700, 1.0}, {"high", 805, 1.15}};
  c.domain[0].nominal = 1;
  c.domain[0].transition_cycles = 512;
  c.domain[1].levels = {{"low", mem_low_mhz, 0.9}, {"normal", 924, 1.0}, {"high", mem_high_mhz, 1.1}};
  c.domain[1].nominal = 1;
  c.domain[1].transition_ns = 1000.0;
  return c;
}

struct DvfsBench : ScBench {
  tlm_utils::simple_initiator_socket<DvfsBench> ctrl{"ctrl"};  // -> fm.ctrl_in
  ClockDomain sm_clock{"sm_clock", sc_core::sc_time(1e6 / 700, sc_core::SC_PS)};
  ClockDomain mem_clock{"mem_clock", sc_core::sc_time(1e6 / 924, sc_core::SC_PS)};
  FrequencyManager fm;
  VoltageRegulator vr{"vr"};

  DvfsBench(sc_core::sc_module_name name, const DvfsConfig& dvfs) : ScBench(name), fm("fm", dvfs) {
    ctrl.bind(fm.ctrl_in);
    fm.sm_clock_out.bind(sm_clock.period_in);
    fm.mem_clock_out.bind(mem_clock.period_in);
    fm.vr_out.bind(vr.setpoint_in);
  }
  // Asks for `level` of domain `d`; true when the frequency manager accepts.
  bool request(Domain d, uint32_t level, bool immediate = false) {
    VfRequestMsg m;
    m.domain = d;
    m.level = level;
    m.immediate = immediate;
    send(ctrl, m);
    return m.accepted;
  }
};

}  // namespace gpupm::test
