// When an SM next has work without outside input. Whether it must tick at the very
// next edge is StreamingMultiprocessor::ticks_next_edge() (its causes read the SM's
// parts, and are asked in order only until one holds: this runs in every ticked
// cycle); otherwise it may sleep until the cycle below. Everything else that wakes
// it (a fill, END_REQ, a launch, a pause or hold) comes over a socket.
#pragma once

#include "gpupm/clock/tickable.h"

#include <algorithm>
#include <cstdint>

namespace gpupm {

// The next cycle the SM at cycle `c` must tick. `next_edge`: a cause to tick at
// c + 1. `min_ready`: the earliest cycle a passed-over warp may issue or the LSU's
// L1 access queue has a line due. An issue hold
// until `hold_until` with unpaused warps ends then; `earliest_launch`: the first
// pending CTA's start (c + 1 for one not seen yet, kNever for none). Never before c + 1.
constexpr uint64_t next_busy_cycle_after(uint64_t c, bool next_edge, uint64_t min_ready, uint64_t hold_until,
                                         bool holding_warps, uint64_t earliest_launch) {
  uint64_t next = next_edge ? c + 1 : min_ready;
  if (c < hold_until && holding_warps) next = std::min(next, hold_until);
  next = std::min(next, earliest_launch);
  return std::max(next, c + 1);
}

}  // namespace gpupm
