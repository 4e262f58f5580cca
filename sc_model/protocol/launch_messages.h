// Messages between the command processor (host/command_processor.h) and the
// GWDE: the launches a host asks for through the host interface.
#pragma once

#include "gpupm/protocol/kernel_launch_request.h"
#include "gpupm/protocol/message.h"

#include <cstdint>

namespace gpupm {

// Command processor -> GWDE (launch_in): after the commands queued before it,
// run launch entries [first, first + count) of the workload in order (see
// launch_entries() in workload/kernel_profile.h), or one kernel the host
// describes (kernel_launch), or, with end_run, end the run.
struct LaunchCommandMsg : Message<LaunchCommandMsg> {
  uint32_t first = 0, count = 0;
  bool end_run = false;
  bool kernel_launch = false;
  KernelLaunchRequest request;  // with kernel_launch
};

// GWDE -> command processor (gwde_in): the oldest queued command has been
// carried out (its last kernel has ended and the launch gap has passed).
struct LaunchCommandDoneMsg : Message<LaunchCommandDoneMsg> {
  bool end_run = false;
};

}  // namespace gpupm
