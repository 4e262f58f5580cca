// The SM's tick condition: any one cause ticks at the next edge; without one the SM
// sleeps until a passed-over warp may issue, an issue hold ends or a CTA starts.
#include "gpupm/sm/tick_condition.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

constexpr uint64_t kCycle = 100;

uint64_t next_for(const NextEdgeCauses& causes, uint64_t min_ready = kNever, uint64_t hold_until = 0,
                  bool holding_warps = false, uint64_t earliest_launch = kNever) {
  return next_busy_cycle_after(kCycle, min_ready, causes, hold_until, holding_warps, earliest_launch);
}

TEST(TickCondition, EachCauseAloneTicksAtTheNextEdge) {
  bool NextEdgeCauses::*const causes[] = {&NextEdgeCauses::issued,           &NextEdgeCauses::drained_responses,
                                          &NextEdgeCauses::lsu_advances,     &NextEdgeCauses::mem_head_unblocked,
                                          &NextEdgeCauses::request_can_go,   &NextEdgeCauses::throttled,
                                          &NextEdgeCauses::response_pending, &NextEdgeCauses::end_req_pending};
  static_assert(sizeof(causes) / sizeof(causes[0]) * sizeof(bool) == sizeof(NextEdgeCauses), "every cause listed");
  EXPECT_FALSE(needs_next_edge(NextEdgeCauses{}));
  for (bool NextEdgeCauses::*cause : causes) {
    NextEdgeCauses x;
    x.*cause = true;
    EXPECT_TRUE(needs_next_edge(x));
    EXPECT_EQ(next_for(x, /*min_ready=*/kCycle + 50), kCycle + 1);
  }
}

TEST(TickCondition, WithoutACauseSleepsUntilAWarpMayIssue) {
  EXPECT_EQ(next_for({}, kCycle + 50), kCycle + 50);
  EXPECT_EQ(next_for({}), kNever);  // nothing left: only outside input wakes it
}

TEST(TickCondition, NeverBeforeTheNextEdge) {
  EXPECT_EQ(next_for({}, kCycle), kCycle + 1);
  EXPECT_EQ(next_for({}, 3), kCycle + 1);
  EXPECT_EQ(next_for({}, kNever, 0, false, kCycle - 10), kCycle + 1);
}

TEST(TickCondition, AnIssueHoldWithWarpsEndsAtItsCycle) {
  EXPECT_EQ(next_for({}, kNever, kCycle + 30, true), kCycle + 30);
  EXPECT_EQ(next_for({}, kCycle + 10, kCycle + 30, true), kCycle + 10);
  EXPECT_EQ(next_for({}, kNever, kCycle + 30, false), kNever);  // no warps held: nothing to resume
  EXPECT_EQ(next_for({}, kNever, kCycle, true), kNever);        // the hold is over
}

TEST(TickCondition, APendingLaunchStartsOnTime) {
  EXPECT_EQ(next_for({}, kCycle + 50, 0, false, kCycle + 20), kCycle + 20);
  EXPECT_EQ(next_for({}, kCycle + 10, 0, false, kCycle + 20), kCycle + 10);
}

}  // namespace
}  // namespace gpupm
