// What a line request on the SM -> memory socket carries beyond the TLM command (payload extensions).
#pragma once

#include "gpupm/protocol/message.h"

#include <cstdint>

namespace gpupm {

// The read is an atomic transaction (SmConfig::atomic_transactions): the L2 performs it on these 32 B
// sectors of the line (bit per sector), a slice cycle each.
struct AtomicAccess : Message<AtomicAccess> {
  uint8_t sectors = 0;
};

}  // namespace gpupm
