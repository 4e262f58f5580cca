// A warp slot's state as the issue stage reads it: readiness, the head's operand
// cycle per warp kind, issue classes, a reset that keeps a program warp's storage.
#include "gpupm/sm/warp_state.h"

#include <gtest/gtest.h>

#include <set>

namespace gpupm {
namespace {

WarpSlot resident_profile_warp() {
  WarpSlot w;
  w.valid = true;
  w.has_head = true;
  return w;
}

TEST(WarpState, ReadinessPartitionsResidentWarps) {
  WarpSlot w = resident_profile_warp();
  w.head.dep = 1;
  w.profile.board.set(w.profile.head_index() - 1, 50);  // the result the head reads
  EXPECT_EQ(readiness(w, 49), Readiness::Waiting);
  EXPECT_EQ(readiness(w, 50), Readiness::Ready);
  w.profile.board.set_pending(w.profile.head_index() - 1);  // a load on its way
  EXPECT_EQ(readiness(w, 1000), Readiness::Waiting);
  for (bool WarpSlot::*blocks : {&WarpSlot::finished, &WarpSlot::at_barrier}) {
    WarpSlot b = resident_profile_warp();
    b.*blocks = true;
    EXPECT_EQ(readiness(b, 1000), Readiness::Blocked);
  }
  WarpSlot empty = resident_profile_warp();
  empty.has_head = false;
  EXPECT_EQ(readiness(empty, 1000), Readiness::Blocked);
}

TEST(WarpState, SchedulableOnlyWhileResidentUnpausedAndUnfinished) {
  WarpSlot w = resident_profile_warp();
  EXPECT_TRUE(schedulable(w));
  for (bool WarpSlot::*flag : {&WarpSlot::paused, &WarpSlot::finished}) {
    WarpSlot b = resident_profile_warp();
    b.*flag = true;
    EXPECT_FALSE(schedulable(b));
  }
  EXPECT_FALSE(schedulable(WarpSlot{}));
}

TEST(WarpState, HeadReadyReadsTheScoreboardOfItsKind) {
  WarpSlot w = resident_profile_warp();
  w.head.dep = 2;
  w.profile.board.set(w.profile.head_index() - 2, 70);
  w.program.head_ready_at = 900;  // not this warp's kind: ignored
  EXPECT_EQ(head_ready(w), 70u);
  w.kind = WarpKind::Program;
  EXPECT_EQ(head_ready(w), 900u);
  w.program.head_ready_at = Scoreboard::kPending;
  EXPECT_EQ(readiness(w, 1000), Readiness::Waiting);
}

TEST(WarpState, IssueClassesAreDistinctPerKindAndClass) {
  std::set<uint8_t> seen;
  WarpSlot w;
  for (InstClass c :
       {InstClass::Alu, InstClass::Sfu, InstClass::Load, InstClass::Store, InstClass::Barrier, InstClass::Shared}) {
    w.head.op = c;
    seen.insert(issue_class(w));
  }
  ptx::InstInfo info;
  w.kind = WarpKind::Program;
  w.program.head_info = &info;
  using ptx::TimingClass;
  for (TimingClass c : {TimingClass::Alu, TimingClass::Sfu, TimingClass::Load, TimingClass::Store, TimingClass::Atomic,
                        TimingClass::Shared, TimingClass::Barrier}) {
    info.cls = c;
    seen.insert(issue_class(w));
  }
  EXPECT_EQ(seen.size(), 13u);
  EXPECT_LT(*seen.rbegin(), kIssueClasses);
}

TEST(WarpState, ProgramHeadSendsAnAtomicThroughTheLsuAsALoad) {
  ptx::InstInfo info;
  ProgramWarp p;
  p.head_info = &info;
  info.cls = ptx::TimingClass::Atomic;
  EXPECT_EQ(program_head(p).op, InstClass::Load);
  EXPECT_TRUE(program_head(p).atomic);
  info.cls = ptx::TimingClass::Shared;
  EXPECT_EQ(program_head(p).op, InstClass::Shared);
  EXPECT_FALSE(program_head(p).atomic);
}

TEST(WarpState, ResetForACtaKeepsTheProgramStorageOnly) {
  WarpSlot w = resident_profile_warp();
  w.kind = WarpKind::Program;
  w.finished = true;
  w.issued_at = 5;
  w.program.regs.start(200);
  ptx::InstInfo head;
  head.n_src = 1;
  head.src[0] = 150;
  w.program.regs.set(head.src.data(), 1, 77);
  w.program.regs.expect_load(w.program.regs.new_tag(), 1, {4, 0, 0, 0});
  w.reset_for_cta();
  EXPECT_FALSE(w.valid);
  EXPECT_FALSE(w.finished);
  EXPECT_FALSE(w.is_program());
  EXPECT_EQ(w.issued_at, kNever);
  EXPECT_EQ(w.program.regs.pending_loads(), 0u);
  EXPECT_EQ(w.program.regs.new_tag(), 0u);         // tags from 0 again
  EXPECT_EQ(w.program.regs.ready_for(head), 77u);  // the register file kept (start() clears it)
}

TEST(WarpState, TheLastWarpOfACtaHasItsThreadsOnly) {
  EXPECT_EQ(warp_lanes(100, 0, 32), ~uint32_t(0));
  EXPECT_EQ(warp_lanes(100, 2, 32), ~uint32_t(0));
  EXPECT_EQ(warp_lanes(100, 3, 32), 0xfu);
  EXPECT_EQ(warp_lanes(33, 1, 32), 1u);
  EXPECT_EQ(warp_lanes(64, 1, 32), ~uint32_t(0));
}

}  // namespace
}  // namespace gpupm
