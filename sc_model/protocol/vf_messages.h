// Messages of the V/F path: controllers -> FrequencyManager -> VoltageRegulator
// and the two ClockDomains (payload extensions).
#pragma once

#include "gpupm/protocol/domain.h"
#include "gpupm/protocol/message.h"

namespace gpupm {

// ClockDomain <- FrequencyManager: new period from the next edge on.
struct ClockPeriodMsg : Message<ClockPeriodMsg> {
  sc_core::sc_time period;
};

// Controller -> FrequencyManager (ctrl_in): move a domain to a level.
// `immediate` sets the level without a transition (static policies at time 0).
struct VfRequestMsg : Message<VfRequestMsg> {
  Domain domain = Domain::Sm;
  uint32_t level = 0;
  bool immediate = false;
  bool accepted = false;  // out: false while a transition of that domain is under way
};

// FrequencyManager -> VoltageRegulator (setpoint_in): ramp to `volts` over `ramp`.
struct VoltageSetpointMsg : Message<VoltageSetpointMsg> {
  Domain domain = Domain::Sm;
  double volts = 0;
  sc_core::sc_time ramp;
};

}  // namespace gpupm
