// The numbers a report gives for an interval of a run: everything is computed
// from two snapshots of monotonic counters, so per-kernel, per-epoch and total
// figures come from one piece of code.
#pragma once

#include "freq/dvfs_config.h"
#include "mem/memory_system.h"
#include "power/power_model.h"
#include "sm/sm_counters.h"

#include <nlohmann/json.hpp>

#include <array>
#include <string>
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
  std::vector<double> sm_energy_j;                     // per SM (empty at the start: all zero)
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

// The report's metrics for the interval (a, b]. Schema: docs/report.schema.json.
nlohmann::json interval_metrics(const Snapshot& a, const Snapshot& b, const MetricContext& ctx);

}  // namespace gpupm
