// A driver-like launch as the host describes it: plain data, no SystemC, so
// that the workload readers (and the fuzz build's SystemC-free library) can
// take it (workload/launch_entries.h) as well as the protocol's messages.
#pragma once

#include <cstdint>
#include <vector>

namespace gpupm {

// The host's LAUNCH_KERNEL (memory.data "platform"): kernel `kernel` of the
// program (the workload's kernels in order of first launch) on a grid and
// block of the host's choosing, with the parameter block the host put in the
// platform's memory (read at the doorbell).
struct KernelLaunchRequest {
  uint32_t kernel = 0;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint32_t shared_bytes = 0;
  std::vector<uint8_t> params;
};

}  // namespace gpupm
