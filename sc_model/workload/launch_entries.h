// What a host may launch one entry at a time: the host interface's launch
// commands (host/command_processor.h) name entries of the loaded workload.
#pragma once

#include "gpupm/protocol/kernel_launch_request.h"
#include "gpupm/workload/kernel_profile.h"

#include <cstddef>

namespace gpupm {

// A program (a LaunchSource) whose "launches" entries a host starts one at a time.
class EntryLaunchSource {
 public:
  virtual ~EntryLaunchSource() = default;
  virtual size_t entry_count() const = 0;
  // Makes the LaunchSource's next() hand out entry `entry`'s launches (its
  // repeat or while_nonzero loop), then null.
  virtual void begin_entry(size_t entry) = 0;
  // Makes next() hand out the one launch a host described (LAUNCH_KERNEL with
  // platform data; the platform checked it), then null.
  virtual void begin_kernel_launch(const KernelLaunchRequest& request) = 0;
};

// The entries: a one-application workload's launches, or its program's
// "launches" entries; 0 for two co-running applications.
size_t launch_entries(const Workload& w);
// A one-application program workload's entry source (null: a profile workload).
EntryLaunchSource* entry_source(const Workload& w);

}  // namespace gpupm
