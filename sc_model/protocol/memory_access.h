// What a line request on the SM -> memory socket carries beyond the TLM command (payload extensions).
#pragma once

#include "gpupm/protocol/message.h"

#include <cstdint>

namespace gpupm {

// The request touches only these 32 B sectors of its line (bit per sector), as GPGPU-Sim's coalescer sizes
// it: a store's write (SmConfig::store_sectors), or an atomic transaction (SmConfig::atomic_transactions),
// which the L2 performs a slice cycle per sector.
struct LineSectors : Message<LineSectors> {
  uint8_t sectors = 0;
  bool atomic = false;
};

}  // namespace gpupm
