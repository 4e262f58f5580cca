// Scoreboard: instruction i reads the result of i - dep; a pending load blocks
// its dependents and the instruction 64 later that reuses its slot.
#include "gpupm/sm/scoreboard.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

constexpr uint64_t kPending = Scoreboard::kPending;

TEST(Scoreboard, NoDependencyIsReadyAtOnce) {
  Scoreboard b;
  b.set(3, 500);
  EXPECT_EQ(b.ready_at(4, 0), 0u);
  EXPECT_EQ(b.ready_at(70, 0), 0u);
}

TEST(Scoreboard, DependencyReadsTheResultDepEarlier) {
  Scoreboard b;
  for (uint64_t i = 0; i < 10; ++i) b.set(i, 100 + 10 * i);
  EXPECT_EQ(b.ready_at(10, 1), 190u);
  EXPECT_EQ(b.ready_at(10, 4), 160u);
  EXPECT_EQ(b.ready_at(10, 10), 100u);
  // Across the window wrap: index 130 with dep 3 reads slot of 127.
  b.set(127, 777);
  EXPECT_EQ(b.ready_at(130, 3), 777u);
  b.reset();
  EXPECT_EQ(b.ready_at(10, 1), 0u);
}

TEST(Scoreboard, PendingLoadBlocksDependentsUntilSet) {
  Scoreboard b;
  b.set(4, 50);
  b.set_pending(5);
  EXPECT_EQ(b.ready_at(6, 1), kPending);
  EXPECT_EQ(b.ready_at(9, 4), kPending);
  EXPECT_EQ(b.ready_at(9, 5), 50u);  // reads 4, not the load
  EXPECT_EQ(b.ready_at(6, 0), 0u);
  b.set(5, 320);  // data back
  EXPECT_EQ(b.ready_at(6, 1), 320u);
}

TEST(Scoreboard, SlotReuseWaitsForPendingLoad) {
  Scoreboard b;
  b.set_pending(5);
  // 69 would overwrite 5's slot: blocked whatever it depends on.
  EXPECT_EQ(b.ready_at(5 + Scoreboard::kWindow, 0), kPending);
  EXPECT_EQ(b.ready_at(5 + Scoreboard::kWindow, 2), kPending);
  EXPECT_EQ(b.ready_at(4 + Scoreboard::kWindow, 0), 0u);  // neighbour slot is free
  b.set(5, 99);
  EXPECT_EQ(b.ready_at(5 + Scoreboard::kWindow, 0), 0u);
  b.set(5 + Scoreboard::kWindow - 2, 40);
  EXPECT_EQ(b.ready_at(5 + Scoreboard::kWindow, 2), 40u);
}

}  // namespace
}  // namespace gpupm
