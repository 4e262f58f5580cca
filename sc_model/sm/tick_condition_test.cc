// The SM's next busy cycle: a cause to tick at the next edge wins; without one the
// SM sleeps until a passed-over warp may issue, an issue hold ends or a CTA starts.
#include "gpupm/sm/tick_condition.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

constexpr uint64_t kCycle = 100;

uint64_t next_for(bool next_edge, uint64_t min_ready, uint64_t hold_until = 0, bool holding_warps = false,
                  uint64_t earliest_launch = kNever) {
  return next_busy_cycle_after(kCycle, next_edge, min_ready, hold_until, holding_warps, earliest_launch);
}

TEST(TickCondition, ACauseTicksAtTheNextEdge) {
  EXPECT_EQ(next_for(true, kCycle + 50), kCycle + 1);
  EXPECT_EQ(next_for(true, kNever, kCycle + 30, true, kCycle + 20), kCycle + 1);
}

TEST(TickCondition, WithoutACauseSleepsUntilAWarpMayIssue) {
  EXPECT_EQ(next_for(false, kCycle + 50), kCycle + 50);
  EXPECT_EQ(next_for(false, kNever), kNever);  // nothing left: only outside input wakes it
}

TEST(TickCondition, NeverBeforeTheNextEdge) {
  EXPECT_EQ(next_for(false, kCycle), kCycle + 1);
  EXPECT_EQ(next_for(false, 3), kCycle + 1);
  EXPECT_EQ(next_for(false, kNever, 0, false, kCycle - 10), kCycle + 1);
}

TEST(TickCondition, AnIssueHoldWithWarpsEndsAtItsCycle) {
  EXPECT_EQ(next_for(false, kNever, kCycle + 30, true), kCycle + 30);
  EXPECT_EQ(next_for(false, kCycle + 10, kCycle + 30, true), kCycle + 10);
  EXPECT_EQ(next_for(false, kNever, kCycle + 30, false), kNever);  // no warps held: nothing to resume
  EXPECT_EQ(next_for(false, kNever, kCycle, true), kNever);        // the hold is over
}

TEST(TickCondition, APendingLaunchStartsOnTime) {
  EXPECT_EQ(next_for(false, kCycle + 50, 0, false, kCycle + 20), kCycle + 20);
  EXPECT_EQ(next_for(false, kCycle + 10, 0, false, kCycle + 20), kCycle + 10);
}

}  // namespace
}  // namespace gpupm
