// What the V/F blocks expose to the power model: read-only interfaces.
#pragma once

#include "gpupm/protocol/domain.h"

#include <cstdint>

namespace gpupm {

// The frequency manager (freq/frequency_manager.h).
class ClockStatus {
 public:
  virtual ~ClockStatus() = default;
  virtual double mhz(Domain d) const = 0;            // the applied clock
  virtual double nominal_volts(Domain d) const = 0;  // the V/F table's nominal level
  virtual uint32_t level(Domain d) const = 0;        // the V/F level applied (index in the table)
  virtual bool in_transition(Domain d) const = 0;    // a level change is under way
};

// The voltage regulator (vr/voltage_regulator.h).
class VoltageStatus {
 public:
  virtual ~VoltageStatus() = default;
  virtual double voltage(Domain d) const = 0;  // regulator output now
};

}  // namespace gpupm
