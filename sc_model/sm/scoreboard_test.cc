// Scoreboard: instruction i reads the result of i - dep; a pending load blocks
// its dependents and the instruction 64 later that reuses its slot.
// RegisterScoreboard: the latest of an instruction's registers; loads by tag.
#include "gpupm/sm/scoreboard.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

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

ptx::InstInfo reads_writes(std::initializer_list<uint16_t> src, std::initializer_list<uint16_t> dst) {
  ptx::InstInfo in;
  for (uint16_t r : src) in.src[in.n_src++] = r;
  for (uint16_t r : dst) in.dst[in.n_dst++] = r;
  return in;
}

TEST(RegisterScoreboard, AnInstructionWaitsForItsSourcesAndDestinations) {
  RegisterScoreboard b;
  b.start(16);
  const uint16_t r3 = 3, r5 = 5, r9 = 9;
  b.set(&r3, 1, 40);
  b.set(&r5, 1, 60);
  b.set(&r9, 1, 90);
  EXPECT_EQ(b.ready_for(reads_writes({3}, {})), 40u);
  EXPECT_EQ(b.ready_for(reads_writes({3, 5}, {1})), 60u);
  EXPECT_EQ(b.ready_for(reads_writes({3}, {9})), 90u);  // must not overwrite a value still coming
  EXPECT_EQ(b.ready_for(reads_writes({}, {})), 0u);
}

TEST(RegisterScoreboard, APendingLoadBlocksUntilItsTagCompletes) {
  RegisterScoreboard b;
  b.start(16);
  const uint64_t first = b.new_tag(), second = b.new_tag();
  EXPECT_NE(first, second);
  b.expect_load(first, 2, {1, 2, 0, 0});
  b.expect_load(second, 1, {7, 0, 0, 0});
  EXPECT_EQ(b.ready_for(reads_writes({2}, {})), kPending);
  EXPECT_EQ(b.ready_for(reads_writes({}, {7})), kPending);
  std::vector<uint16_t> wrote;
  auto record = [&](uint8_t n, const uint16_t* regs) { wrote.assign(regs, regs + n); };
  // Out of tag order: the second load is back first.
  ASSERT_TRUE(b.complete(second, 300, record));
  EXPECT_EQ(wrote, std::vector<uint16_t>{7});
  EXPECT_EQ(b.ready_for(reads_writes({7}, {})), 300u);
  EXPECT_EQ(b.ready_for(reads_writes({1}, {})), kPending);
  EXPECT_EQ(b.pending_loads(), 1u);
  wrote.clear();
  EXPECT_FALSE(b.complete(second, 400, record));  // not outstanding any more: ignored
  EXPECT_TRUE(wrote.empty());
  EXPECT_EQ(b.ready_for(reads_writes({7}, {})), 300u);
  ASSERT_TRUE(b.complete(first, 350, record));
  EXPECT_EQ(wrote, (std::vector<uint16_t>{1, 2}));
  EXPECT_EQ(b.ready_for(reads_writes({1, 2}, {})), 350u);
  EXPECT_EQ(b.pending_loads(), 0u);
}

}  // namespace
}  // namespace gpupm
