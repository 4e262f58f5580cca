// A three-level V/F table like the GTX480's (SM 595/700/805 MHz at
// 0.85/1.0/1.15 V, 512-cycle transitions), with the memory levels a test needs.
#pragma once

#include "freq/dvfs_config.h"

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

}  // namespace gpupm::test
