// The platform's monotonic counters at one instant (Gpu::snapshot()): the
// report's metrics (report/metrics.h) and the policies' windows are differences
// of two snapshots.
#pragma once

#include "gpupm/freq/dvfs_config.h"
#include "gpupm/power/power_model.h"
#include "gpupm/protocol/memory_status.h"
#include "gpupm/protocol/sm_status.h"

#include <array>
#include <vector>

namespace gpupm {

struct Snapshot {
  double time_s = 0;
  uint64_t sm_cycles = 0;   // SM-domain cycles elapsed
  uint64_t mem_cycles = 0;  // memory-domain (DRAM command) cycles elapsed
  SmCounters sm;            // summed over SMs
  MemActivity mem;
  Energy energy;
  std::array<std::vector<double>, kDomains> residency;  // seconds per level
  std::vector<double> sm_energy_j;                      // per SM (empty at the start: all zero)
};

// SM i's energy (J) in the interval (a, b].
inline double sm_energy_between(const Snapshot& a, const Snapshot& b, size_t i) {
  auto at = [i](const Snapshot& s) { return i < s.sm_energy_j.size() ? s.sm_energy_j[i] : 0.0; };
  return at(b) - at(a);
}

struct MetricContext {
  uint32_t sm_count;
  uint32_t channels;
  uint32_t line_bytes;
  const DvfsConfig* dvfs;
};

}  // namespace gpupm
