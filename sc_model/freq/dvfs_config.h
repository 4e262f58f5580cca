// V/F tables of the two domains. The SM domain clocks the SMs; the memory
// domain's clock is the DRAM command clock (interconnect and L2 follow at a
// fixed ratio, see MemConfig::l2_clock_ratio).
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/common/param.h"
#include "gpupm/protocol/domain.h"

#include <string>
#include <vector>

namespace gpupm {

struct VfLevel {
  std::string name;
  double mhz = 0;
  double volts = 0;
};

struct DomainDvfs {
  std::vector<VfLevel> levels;  // ascending frequency
  uint32_t nominal = 0;         // index of the nominal level
  // Transition latency: the SM domain counts SM cycles (Equalizer: 512); the
  // memory domain, which the paper leaves open, counts nanoseconds.
  uint32_t transition_cycles = 0;
  double transition_ns = 0;
  int level_index(const std::string& name) const {
    for (size_t i = 0; i < levels.size(); ++i)
      if (levels[i].name == name) return int(i);
    return -1;
  }
};

struct DvfsConfig {
  DomainDvfs domain[kDomains];
  const DomainDvfs& operator[](Domain d) const { return domain[size_t(d)]; }
};

// Every field's name, range, unit and description (common/param.h).
void describe(ParamVisitor& v, DvfsConfig& c);
DvfsConfig parse_dvfs_config(JsonReader& r);

}  // namespace gpupm
