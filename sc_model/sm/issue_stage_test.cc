// The issue stage on its own (no SM around it): greedy-then-oldest and oldest-first picks, warps
// passed over on their operands (their wake cycle reported), memory heads facing
// the full LSU, the scan memo of a scheduler that found nothing (with the LSU full, or
// every warp waiting for its operands), and one refusal answering for the rest of
// its issue class.
#include "gpupm/sm/issue_stage.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace gpupm {
namespace {

// The default SM: 2 schedulers, slot s belongs to scheduler s % 2.
constexpr uint32_t kSched = 0;
constexpr uint16_t kA = 0, kB = 2, kC = 4;  // scheduler 0's warps, oldest first
constexpr uint16_t kOther = 1;              // scheduler 1's

// A resident profile warp whose head of class `op` has its operands at `operands_at`.
WarpSlot warp(InstClass op, uint64_t operands_at = 0) {
  WarpSlot w;
  w.valid = true;
  w.has_head = true;
  w.head.op = op;
  if (operands_at) {
    w.head.dep = 1;  // reads the result of the instruction before it
    w.profile.board.set(w.profile.head_index() - 1, operands_at);
  }
  return w;
}

// A resident program warp whose head (its operands there) is `info`.
WarpSlot program_warp(const ptx::InstInfo& info) {
  WarpSlot w = warp(inst_class_of(info.cls));
  w.kind = WarpKind::Program;
  w.program.head_info = &info;
  return w;
}

class IssueStageTest : public ::testing::Test {
 protected:
  // A warp becomes resident, the youngest of its scheduler.
  void place(uint16_t slot, WarpSlot w) {
    warps[slot] = std::move(w);
    stage.add(slot);
    stage.refresh(slot, warps[slot]);
  }
  // A warp's state changed, as the SM reports it.
  void change(uint16_t slot, WarpSlot w) {
    warps[slot] = std::move(w);
    stage.refresh(slot, warps[slot]);
  }
  // Scheduler `s`'s pick at cycle `c` in a fresh cycle; a pick is issued as the SM
  // does (the scheduler keeps to it). `lsu_full`: what the stage saw at its start.
  int pick(uint32_t s, uint64_t c, bool issued_any = false) { return pick_seeing(s, c, !lsu.can_accept(), issued_any); }
  int pick_seeing(uint32_t s, uint64_t c, bool lsu_full, bool issued_any = false) {
    stage.start_cycle();
    const int p = stage.pick(s, c, lsu_full, issued_any, {warps.data(), lsu, collector});
    if (p >= 0) stage.issued(s, uint16_t(p));
    return p;
  }
  // Scheduler 0: an SFU head (the SFU busy until 50) and a load; scheduler 1: an ALU
  // head whose operands come at 70; the LSU full. Nothing can issue before 50.
  void fruitless_with_lsu_full() {
    place(kA, warp(InstClass::Sfu));
    place(kB, warp(InstClass::Load));
    place(kOther, warp(InstClass::Alu, 70));
    stage.occupy_sfu(50);
    fill_lsu();
  }
  void fill_lsu() {
    Inst store;
    store.op = InstClass::Store;
    store.lines = 1;
    lsu.accept(kOther, 0, store);
    ASSERT_FALSE(lsu.can_accept());
  }
  void drain_lsu(uint64_t c) {
    std::vector<Lsu::LoadDone> done;
    lsu.cycle(c, done);  // the store's one line leaves for memory
    ASSERT_TRUE(lsu.can_accept());
  }

  SmConfig cfg;
  std::vector<WarpSlot> warps = std::vector<WarpSlot>(cfg.max_warps);
  Lsu lsu{cfg};
  OperandCollector collector{cfg};
  IssueStage stage{cfg};
};

TEST_F(IssueStageTest, SlotsAlternateBetweenSchedulers) {
  EXPECT_EQ(stage.scheduler_of(kA), kSched);
  EXPECT_EQ(stage.scheduler_of(kB), kSched);
  EXPECT_EQ(stage.scheduler_of(kOther), 1u);
}

TEST_F(IssueStageTest, TheGreedyWarpKeepsIssuingWhileItCan) {
  place(kA, warp(InstClass::Alu, 20));
  place(kB, warp(InstClass::Alu));
  place(kC, warp(InstClass::Alu));
  EXPECT_EQ(pick(kSched, 10), kB);  // the oldest ready: A waits for its operands
  EXPECT_EQ(pick(kSched, 30), kB);  // A is ready now and older, but B is the greedy warp
  EXPECT_EQ(pick(1, 30), -1);       // scheduler 1 has no warps
}

TEST_F(IssueStageTest, WithoutItsGreedyWarpAScheduleTakesTheOldestReady) {
  place(kA, warp(InstClass::Alu, 20));
  place(kB, warp(InstClass::Alu));
  place(kC, warp(InstClass::Alu));
  EXPECT_EQ(pick(kSched, 10), kB);
  change(kB, warp(InstClass::Alu, 90));  // its next instruction waits
  EXPECT_EQ(pick(kSched, 10), kC);       // A still waits too
  change(kC, warp(InstClass::Alu, 90));
  EXPECT_EQ(pick(kSched, 30), kA);
  stage.retire(kA);  // finished: never considered again, not even as the greedy warp
  EXPECT_EQ(pick(kSched, 30), -1);
  EXPECT_EQ(pick(kSched, 90), kB);
}

TEST_F(IssueStageTest, AWarpWaitingForItsOperandsIsSkippedAndItsWakeCycleReported) {
  place(kA, warp(InstClass::Alu, 40));
  place(kB, warp(InstClass::Sfu, 25));
  WarpSlot on_load = warp(InstClass::Alu, 1);
  on_load.profile.board.set_pending(on_load.profile.head_index() - 1);  // no cycle known: only the load wakes it
  place(kC, std::move(on_load));
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_EQ(stage.min_ready(), 25u);
  EXPECT_FALSE(stage.mem_blocked());
  EXPECT_EQ(pick(kSched, 25), kB);
}

TEST_F(IssueStageTest, APipeInUseHoldsItsWarpsUntilItFrees) {
  place(kA, warp(InstClass::Alu));
  place(kB, warp(InstClass::Sfu));
  stage.occupy_alu(kA, 15);
  stage.occupy_alu(kOther, 99);  // scheduler 1's ALU pipe: not A's
  stage.occupy_sfu(12);
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_EQ(stage.min_ready(), 12u);
  EXPECT_EQ(pick(kSched, 12), kB);
  stage.occupy_sfu(20);
  EXPECT_EQ(pick(kSched, 15), kA);
}

// A .shared access enters the free pipe at once and holds its warps back; a generic access whose lanes
// turn out shared (its issue did not wait) queues behind the pipe's work instead of cutting it short.
TEST_F(IssueStageTest, TheSharedPipeQueuesAnAccessIssuedWhileItIsBusy) {
  place(kA, warp(InstClass::Shared));
  EXPECT_EQ(stage.enter_shared(10, 4), 10u);  // free: busy until 14
  EXPECT_EQ(pick(kSched, 12), -1);
  EXPECT_EQ(stage.min_ready(), 14u);
  EXPECT_EQ(stage.enter_shared(12, 6), 14u);  // a generic access at 12 starts when the pipe frees
  EXPECT_EQ(pick(kSched, 19), -1);
  EXPECT_EQ(pick(kSched, 20), kA);
}

TEST_F(IssueStageTest, AProgramWarpWaitsForACollectorUnitOfItsClass) {
  ptx::InstInfo fma, bar;
  fma.cls = ptx::TimingClass::Alu;
  bar.cls = ptx::TimingClass::Barrier;
  place(kA, program_warp(fma));
  const uint16_t regs[3] = {1, 2, 3};
  for (uint32_t u = 0; u < cfg.collector_units_alu; ++u)
    collector.collect(OperandCollector::Pool::Alu, 10, kOther + 2 * u, regs, 3);
  const uint64_t unit_free = collector.issue_ready(OperandCollector::Pool::Alu);
  ASSERT_GT(unit_free, 11u);
  EXPECT_EQ(pick(kSched, 11), -1);
  EXPECT_EQ(stage.min_ready(), unit_free);
  place(kB, program_warp(bar));  // a barrier reads no register: no unit to wait for
  EXPECT_EQ(pick(kSched, 11), kB);
  change(kB, warp(InstClass::Alu, 200));
  EXPECT_EQ(pick(kSched, unit_free), kA);
}

TEST_F(IssueStageTest, MemoryHeadsArePassedOverWhileTheLsuIsFull) {
  place(kA, warp(InstClass::Load));
  place(kB, warp(InstClass::Alu));
  stage.occupy_alu(kB, 15);
  fill_lsu();
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_TRUE(stage.mem_blocked());  // the SM ticks again once the LSU accepts
  EXPECT_EQ(stage.min_ready(), 15u);
  drain_lsu(10);
  EXPECT_EQ(pick(kSched, 11), kA);
  EXPECT_FALSE(stage.mem_blocked());
}

TEST_F(IssueStageTest, AMemoryHeadMeetsTheLatchAnEarlierIssueFilled) {
  place(kA, warp(InstClass::Store));
  fill_lsu();  // by the other scheduler in this cycle: empty when the stage began
  EXPECT_EQ(pick_seeing(kSched, 10, false, true), -1);
  EXPECT_EQ(stage.min_ready(), kNever);  // no cycle: the LSU's draining decides
}

TEST_F(IssueStageTest, AFruitlessScanWithTheLsuFullStandsUntilAWarpChanges) {
  fruitless_with_lsu_full();
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_TRUE(stage.memo_stands(kSched, 11, true));
  // The SFU frees without a warp change (in the SM only an issue frees it, and
  // every issue changes a warp): the memo still answers, with the scan's findings.
  stage.occupy_sfu(0);
  EXPECT_EQ(pick(kSched, 11), -1);
  EXPECT_EQ(stage.min_ready(), 50u);
  EXPECT_TRUE(stage.mem_blocked());
  // A warp of the other scheduler changes: this scan asked the SFU, so it is stale.
  change(kOther, warp(InstClass::Alu, 80));
  EXPECT_FALSE(stage.memo_stands(kSched, 12, true));
  EXPECT_EQ(pick(kSched, 12), kA);
}

// When every scheduler's fruitless scan stands, the SM skips the stage: memos_stand()
// adds what the scans found, as each pick() would; once one memo is stale it says so
// and adds nothing.
TEST_F(IssueStageTest, AllMemosStandingGiveTheScansFindings) {
  fruitless_with_lsu_full();
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_FALSE(stage.memos_stand(10));  // scheduler 1 has not scanned yet
  EXPECT_EQ(pick(1, 10), -1);
  stage.start_cycle();
  ASSERT_TRUE(stage.memos_stand(11));
  EXPECT_EQ(stage.min_ready(), 50u);  // the smaller of the two scans' findings (50, 70)
  EXPECT_TRUE(stage.mem_blocked());   // scheduler 0's load met the full LSU
  stage.start_cycle();
  EXPECT_FALSE(stage.memos_stand(50));  // scheduler 0's memo ran out
  EXPECT_EQ(stage.min_ready(), kNever);
  EXPECT_FALSE(stage.mem_blocked());
  change(kOther, warp(InstClass::Alu, 80));
  stage.start_cycle();
  EXPECT_FALSE(stage.memos_stand(12));  // a warp changed
  EXPECT_EQ(stage.min_ready(), kNever);
}

TEST_F(IssueStageTest, TheScanMemoEndsWhenTheLsuAcceptsOrItsCycleComes) {
  place(kA, warp(InstClass::Sfu));
  place(kB, warp(InstClass::Load));
  stage.occupy_sfu(50);
  fill_lsu();
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_TRUE(stage.memo_stands(kSched, 49, true));
  EXPECT_FALSE(stage.memo_stands(kSched, 50, true));  // the earliest cycle it found a warp may issue
  EXPECT_FALSE(stage.memo_stands(kSched, 11, false));
  EXPECT_EQ(pick(kSched, 50), kA);
  stage.occupy_sfu(90);  // the SFU holds A again: only the LSU's draining lets B go
  EXPECT_EQ(pick(kSched, 51), -1);
  drain_lsu(51);
  EXPECT_EQ(pick(kSched, 52), kB);
}

TEST_F(IssueStageTest, AScanThatAskedNoPipeStandsUntilOneOfItsOwnWarpsChanges) {
  place(kA, warp(InstClass::Alu, 40));  // passed over on its operands
  place(kB, warp(InstClass::Load));     // on the full LSU
  place(kOther, warp(InstClass::Alu));
  fill_lsu();
  EXPECT_EQ(pick(kSched, 10), -1);
  change(kOther, warp(InstClass::Alu, 70));  // another scheduler's warp: no bearing on this scan
  EXPECT_TRUE(stage.memo_stands(kSched, 11, true));
  change(kA, warp(InstClass::Alu, 12));
  EXPECT_FALSE(stage.memo_stands(kSched, 11, true));
  EXPECT_EQ(pick(kSched, 12), kA);
}

// A scan that asked a pipe leans on the full LSU (a memory head would issue without it).
TEST_F(IssueStageTest, NoMemoLeaningOnTheLsuAfterAnIssueInTheSameCycleOrWithRoomInTheLsu) {
  place(kA, warp(InstClass::Alu));
  stage.occupy_alu(kA, 40);
  EXPECT_EQ(pick(kSched, 10), -1);  // the LSU has room
  EXPECT_FALSE(stage.memo_stands(kSched, 11, true));
  fill_lsu();
  EXPECT_EQ(pick(kSched, 10, true), -1);  // lsu_full may be stale after an issue
  EXPECT_FALSE(stage.memo_stands(kSched, 11, true));
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_TRUE(stage.memo_stands(kSched, 11, true));
}

// Every warp waiting for its operands: the scan's findings hold whatever the LSU
// does and whoever issued, until one of the scheduler's own warps changes or the
// earliest wake comes.
TEST_F(IssueStageTest, AScanOfWarpsWaitingForOperandsStandsWithTheLsuFree) {
  place(kA, warp(InstClass::Alu, 40));
  place(kB, warp(InstClass::Load, 30));
  place(kOther, warp(InstClass::Alu));
  EXPECT_EQ(pick(kSched, 10, true), -1);  // after another scheduler's issue, the LSU free
  EXPECT_EQ(stage.min_ready(), 30u);
  EXPECT_TRUE(stage.memo_stands(kSched, 11, false));
  EXPECT_TRUE(stage.memo_stands(kSched, 29, true));
  EXPECT_FALSE(stage.memo_stands(kSched, 30, false));  // B's operands are there
  EXPECT_EQ(pick(1, 11), int(kOther));                 // another scheduler's issue changes nothing here
  change(kOther, warp(InstClass::Alu, 50));
  stage.start_cycle();
  EXPECT_EQ(stage.pick(kSched, 12, false, false, {warps.data(), lsu, collector}), -1);
  EXPECT_EQ(stage.min_ready(), 30u);  // the memo's findings
  change(kA, warp(InstClass::Alu, 20));
  EXPECT_FALSE(stage.memo_stands(kSched, 12, false));
  EXPECT_EQ(pick(kSched, 12), -1);
  EXPECT_EQ(stage.min_ready(), 20u);
}

TEST_F(IssueStageTest, OneRefusalAnswersForTheRestOfItsClass) {
  place(kA, warp(InstClass::Alu));
  place(kB, warp(InstClass::Alu));
  place(kC, warp(InstClass::Sfu));
  stage.occupy_alu(kA, 30);
  EXPECT_EQ(pick(kSched, 10), kC);  // the ALU pipe's refusal holds no other class
  stage.occupy_sfu(35);
  // A's scoreboard moves without the stage being told (no SM warp does this), so
  // asking A gives 60: B, of A's class and past its own operand test, is not asked
  // again and takes A's answer, though the ALU pipe would take B at 30.
  warps[kA] = warp(InstClass::Alu, 60);
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_EQ(stage.min_ready(), 35u);  // C's SFU; the ALU class said 60
  stage.occupy_sfu(99);
  EXPECT_EQ(pick(kSched, 10), -1);
  EXPECT_EQ(stage.min_ready(), 60u);
  stage.refresh(kA, warps[kA]);  // told now: B is asked for itself
  EXPECT_EQ(pick(kSched, 30), kB);
}

// sm.warp_order: B issues first (A's operands are late), then A, B and C are all
// ready every cycle, each ALU head followed by another ALU head.
std::vector<int> order_picks(bool oldest_first) {
  SmConfig cfg;
  cfg.oldest_first = oldest_first;
  std::vector<WarpSlot> warps(cfg.max_warps);
  Lsu lsu{cfg};
  OperandCollector collector{cfg};
  IssueStage stage{cfg};
  auto set = [&](uint16_t slot, WarpSlot w) {
    warps[slot] = std::move(w);
    stage.refresh(slot, warps[slot]);
  };
  std::vector<int> picks;
  auto pick = [&](uint64_t c) {
    stage.start_cycle();
    const int p = stage.pick(kSched, c, false, false, {warps.data(), lsu, collector});
    if (p >= 0) stage.issued(kSched, uint16_t(p));
    picks.push_back(p);
  };
  stage.add(kA);
  set(kA, warp(InstClass::Alu, 3));
  for (uint16_t slot : {kB, kC}) {
    stage.add(slot);
    set(slot, warp(InstClass::Alu));
  }
  pick(1);
  set(kB, warp(InstClass::Alu));  // its next head, ready
  pick(3);
  pick(4);
  set(kA, warp(InstClass::Alu, 6));  // A waits on its last result until 6
  pick(5);
  pick(6);
  return picks;
}

TEST(IssueStageWarpOrder, GtoKeepsToTheGreedyWarp) {
  EXPECT_EQ(order_picks(false), (std::vector<int>{kB, kB, kB, kB, kB}));
}

TEST(IssueStageWarpOrder, OldestFirstTakesTheOldestReadyWarpEachCycle) {
  // A once its operands are there (3, 4, 6), B (the oldest ready) while A waits (1, 5).
  EXPECT_EQ(order_picks(true), (std::vector<int>{kB, kA, kA, kB, kA}));
}

}  // namespace
}  // namespace gpupm
