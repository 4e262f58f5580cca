// When an SM next has work without outside input: the causes that make it tick at
// the very next edge, and the cycle it may otherwise sleep until. Everything else
// that wakes it (a fill, END_REQ, a launch, a pause or hold) comes over a socket.
#pragma once

#include "gpupm/clock/tickable.h"

#include <algorithm>
#include <cstdint>

namespace gpupm {

// Observed at the end of a tick, after the issue stage, the LSU's cycle and the
// line requests were sent.
struct NextEdgeCauses {
  bool issued = false;              // pipes, heads and the LSU latch changed
  bool drained_responses = false;   // fills were taken in this cycle
  bool lsu_advances = false;        // the LSU has work that does not wait for memory
  bool mem_head_unblocked = false;  // a ready memory head met the full latch, which has drained since
  bool request_can_go = false;      // a line request waits and the memory port is free
  bool throttled = false;           // the droop predictor refused a candidate: ask again
  bool response_pending = false;    // a response came at this very time: seen from the next edge
  bool end_req_pending = false;     // an END_REQ not consumed yet (only after its time)
};

constexpr bool needs_next_edge(const NextEdgeCauses& x) {
  return x.issued || x.drained_responses || x.lsu_advances || x.mem_head_unblocked || x.request_can_go || x.throttled ||
         x.response_pending || x.end_req_pending;
}

// The next cycle the SM at cycle `c` must tick. `min_ready`: the earliest cycle a
// passed-over warp may issue. An issue hold until `hold_until` with unpaused warps
// ends then; `earliest_launch`: the first pending CTA's start (c + 1 for one not
// seen yet, kNever for none). Never before c + 1.
constexpr uint64_t next_busy_cycle_after(uint64_t c, uint64_t min_ready, const NextEdgeCauses& causes,
                                         uint64_t hold_until, bool holding_warps, uint64_t earliest_launch) {
  uint64_t next = needs_next_edge(causes) ? c + 1 : min_ready;
  if (c < hold_until && holding_warps) next = std::min(next, hold_until);
  next = std::min(next, earliest_launch);
  return std::max(next, c + 1);
}

}  // namespace gpupm
