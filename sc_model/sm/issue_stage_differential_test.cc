// The issue stage against a frozen copy of its scan (tests/support/
// issue_stage_reference.h), both driven by the same random script the way the SM
// drives them: warps of every issue class added, changed, paused, held at barriers
// and retired; wakes near, far (beyond 64 cycles, a wake wheel's reach) and on a load;
// pipes, collector units and the LSU's latch busy; cycles skipped (a sleeping SM)
// and schedulers skipped (the droop predictor's refusal). Every pick must be the
// same, and in every cycle no scheduler picked, so must min_ready() and mem_blocked()
// (the only cycles the SM reads them in).
#include "gpupm/sm/issue_stage.h"
#include "support/issue_stage_reference.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace gpupm {
namespace {

// One program head per PTX timing class (a program warp's head points at one).
const std::array<ptx::InstInfo, size_t(ptx::TimingClass::Barrier) + 1>& program_heads() {
  static const auto heads = [] {
    std::array<ptx::InstInfo, size_t(ptx::TimingClass::Barrier) + 1> h{};
    for (size_t i = 0; i < h.size(); ++i) h[i].cls = ptx::TimingClass(i);
    return h;
  }();
  return heads;
}

// What one seed's script varies: the SM's shape and how often each event comes.
struct Mix {
  uint32_t schedulers;
  uint32_t max_warps;
  uint32_t ready_pct;    // a new head has its operands already
  uint32_t far_pct;      // ... only beyond the wheel (65-300 cycles ahead)
  uint32_t pending_pct;  // ... only when a load returns
  uint32_t mem_pct;      // a head is a load/store
  uint32_t program_pct;  // a warp is a program warp
};

class Differential {
 public:
  Differential(uint32_t seed, const Mix& mix) : mix_(mix), rng_(seed) {
    cfg_.schedulers = mix.schedulers;
    cfg_.max_warps = mix.max_warps;
    warps_.resize(cfg_.max_warps);
    lsu_ = std::make_unique<Lsu>(cfg_);
    collector_ = std::make_unique<OperandCollector>(cfg_);
    stage_ = std::make_unique<IssueStage>(cfg_);
    ref_ = std::make_unique<test::ReferenceIssueStage>(cfg_);
  }

  // Runs `cycles` cycles; a failure names the seed's cycle.
  void run(uint64_t cycles) {
    for (uint64_t n = 0; n < cycles && !::testing::Test::HasFailure(); ++n) {
      c_ += chance(90) ? 1 : chance(50) ? 1 + below(63) : 64 + below(200);  // a sleeping SM skips cycles
      for (uint32_t e = below(4); e > 0; --e) event();
      stage_->start_cycle();
      ref_->start_cycle();
      picked_ = false;
      if (chance(95)) issue_stage();                               // else gated or held: no scheduler asks
      for (uint32_t e = below(2); e > 0; --e) change(any_slot());  // loads completing after the issue stage
      if (!picked_) {
        ++idle_checks_;
        ASSERT_EQ(stage_->min_ready(), ref_->min_ready()) << "cycle " << c_;
        ASSERT_EQ(stage_->mem_blocked(), ref_->mem_blocked()) << "cycle " << c_;
      }
    }
  }
  uint64_t picks() const { return picks_; }
  uint64_t idle_checks() const { return idle_checks_; }

 private:
  bool chance(uint32_t pct) { return below(100) < pct; }
  uint32_t below(uint32_t n) { return uint32_t(rng_() % n); }
  uint16_t any_slot() { return uint16_t(below(cfg_.max_warps)); }

  // A new head for `w`: its class, and when its operands are there.
  void new_head(WarpSlot& w) {
    const bool program = chance(mix_.program_pct);
    w.kind = program ? WarpKind::Program : WarpKind::Profile;
    w.has_head = chance(95);  // else waiting for an instruction-cache fill
    w.profile.board.reset();
    w.head = Inst{};
    uint64_t wake = chance(mix_.ready_pct)     ? c_ - std::min<uint64_t>(c_, below(100))
                    : chance(mix_.pending_pct) ? Scoreboard::kPending
                    : chance(mix_.far_pct)     ? c_ + 64 + below(237)
                                               : c_ + 1 + below(64);
    if (program) {
      static constexpr ptx::TimingClass kMem[] = {ptx::TimingClass::Load, ptx::TimingClass::Store,
                                                  ptx::TimingClass::Atomic};
      static constexpr ptx::TimingClass kOther[] = {ptx::TimingClass::Alu, ptx::TimingClass::Alu, ptx::TimingClass::Sfu,
                                                    ptx::TimingClass::Shared, ptx::TimingClass::Barrier};
      const ptx::TimingClass cls = chance(mix_.mem_pct) ? kMem[below(3)] : kOther[below(5)];
      w.program.head_info = &program_heads()[size_t(cls)];
      w.head = program_head(w.program);
      w.program.head_ready_at = wake;
      return;
    }
    static constexpr InstClass kOther[] = {InstClass::Alu, InstClass::Alu,     InstClass::Alu,
                                           InstClass::Sfu, InstClass::Barrier, InstClass::Shared};
    w.head.op = chance(mix_.mem_pct) ? (chance(70) ? InstClass::Load : InstClass::Store) : kOther[below(6)];
    if (wake == 0) return;
    w.head.dep = 1;  // reads the result of the instruction before it
    w.profile.board.set(w.profile.head_index() - 1, wake);
  }

  // Both stages are told of the warp's change.
  void refresh(uint16_t slot) {
    stage_->refresh(slot, warps_[slot]);
    ref_->refresh(slot, warps_[slot]);
  }
  void change(uint16_t slot) {
    if (!warps_[slot].valid || warps_[slot].finished) return refresh(slot);  // as a barrier release or pause does
    new_head(warps_[slot]);
    refresh(slot);
  }
  void add(uint16_t slot) {
    WarpSlot& w = warps_[slot];
    w = WarpSlot{};
    w.valid = true;
    w.paused = chance(10);
    new_head(w);
    if (chance(50)) {  // the SM refreshes first, the unit tests add first
      refresh(slot);
      stage_->add(slot);
      ref_->add(slot);
    } else {
      stage_->add(slot);
      ref_->add(slot);
      refresh(slot);
    }
  }
  void retire(uint16_t slot) {
    warps_[slot].finished = true;
    warps_[slot].has_head = false;
    stage_->retire(slot);
    ref_->retire(slot);
  }
  bool resident(uint16_t slot) const { return warps_[slot].valid && !warps_[slot].finished; }

  // Something outside the issue stage happens.
  void event() {
    const uint16_t slot = any_slot();
    WarpSlot& w = warps_[slot];
    switch (below(10)) {
      case 0:
      case 1:
        if (!resident(slot)) add(slot);
        else if (chance(15)) retire(slot);
        break;
      case 2:
      case 3: change(slot); break;
      case 4:
        w.paused = !w.paused;
        refresh(slot);
        break;
      case 5:  // a barrier releases: every warp held there
        for (uint16_t s = 0; s < warps_.size(); ++s)
          if (warps_[s].at_barrier) {
            warps_[s].at_barrier = false;
            refresh(s);
          }
        break;
      case 6:
        if (chance(50) && lsu_->can_accept()) fill_lsu();
        else lsu_ = std::make_unique<Lsu>(cfg_);  // drained
        break;
      case 7: collect(slot, OperandCollector::Pool(below(3))); break;
      case 8: occupy(slot, chance(50) ? InstClass::Alu : chance(50) ? InstClass::Sfu : InstClass::Shared); break;
      case 9:
        if (resident(slot) && chance(30)) {  // arrives at a barrier
          w.at_barrier = true;
          refresh(slot);
        }
        break;
    }
  }
  void fill_lsu() {
    Inst store;
    store.op = InstClass::Store;
    store.lines = 1;
    lsu_->accept(0, 0, store);
  }
  void collect(uint16_t slot, OperandCollector::Pool pool) {
    if (collector_->issue_ready(pool) > c_) return;  // no unit free (an issue found one: the stage asked)
    const uint16_t regs[3] = {uint16_t(below(64)), uint16_t(below(64)), uint16_t(below(64))};
    collector_->collect(pool, c_, slot, regs, uint8_t(below(4)));
  }
  // A pipe busy for a while, now and then well past the wheel.
  void occupy(uint16_t slot, InstClass op) {
    const uint64_t until = c_ + (chance(90) ? 1 + below(12) : 64 + below(100));
    if (op == InstClass::Alu) {
      stage_->occupy_alu(slot, until);
      ref_->occupy_alu(slot, until);
    } else if (op == InstClass::Sfu) {
      stage_->occupy_sfu(until);
      ref_->occupy_sfu(until);
    } else {
      stage_->occupy_shared(until);
      ref_->occupy_shared(until);
    }
  }

  // Each scheduler's pick in turn, issued as the SM issues it.
  void issue_stage() {
    const bool lsu_full = !lsu_->can_accept();
    bool issued_any = false;
    for (uint32_t s = 0; s < cfg_.schedulers; ++s) {
      const int want = ref_->pick(s, c_, lsu_full, issued_any, {warps_.data(), *lsu_, *collector_});
      const int got = stage_->pick(s, c_, lsu_full, issued_any, {warps_.data(), *lsu_, *collector_});
      ASSERT_EQ(got, want) << "cycle " << c_ << " scheduler " << s;
      if (got < 0) continue;
      picked_ = true;
      ++picks_;
      if (chance(5)) break;  // the droop predictor refused: the later schedulers do not ask
      stage_->issued(s, uint16_t(got));
      ref_->issued(s, uint16_t(got));
      issue(uint16_t(got));
      issued_any = true;
    }
  }
  void issue(uint16_t slot) {
    WarpSlot& w = warps_[slot];
    if (w.is_program() && w.program.head_info->cls != ptx::TimingClass::Barrier)
      collect(slot, collector_pool(w.program.head_info->cls));
    switch (w.head.op) {
      case InstClass::Alu:
      case InstClass::Sfu:
      case InstClass::Shared: occupy(slot, w.head.op); break;
      case InstClass::Load:
      case InstClass::Store:
        ASSERT_TRUE(lsu_->can_accept()) << "cycle " << c_;
        lsu_->accept(slot, 0, w.head);
        break;
      case InstClass::Barrier: w.at_barrier = chance(70); break;
    }
    if (chance(3)) return retire(slot);
    new_head(w);
    refresh(slot);
  }

  Mix mix_;
  std::mt19937_64 rng_;
  SmConfig cfg_;
  std::vector<WarpSlot> warps_;
  std::unique_ptr<Lsu> lsu_;
  std::unique_ptr<OperandCollector> collector_;
  std::unique_ptr<IssueStage> stage_;
  std::unique_ptr<test::ReferenceIssueStage> ref_;
  uint64_t c_ = 0;
  bool picked_ = false;
  uint64_t picks_ = 0;
  uint64_t idle_checks_ = 0;
};

void run_seeds(const Mix& mix, uint32_t seeds) {
  uint64_t picks = 0, idle = 0;
  for (uint32_t seed = 1; seed <= seeds && !::testing::Test::HasFailure(); ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Differential d(seed, mix);
    d.run(3000);
    picks += d.picks();
    idle += d.idle_checks();
  }
  // The scripts reach both kinds of cycle, many times.
  EXPECT_GT(picks, 500u * seeds);
  EXPECT_GT(idle, 100u * seeds);
}

TEST(IssueStageDifferential, MostlyReadyWarpsOnTwoSchedulers) { run_seeds({2, 48, 60, 20, 10, 20, 50}, 60); }

TEST(IssueStageDifferential, MemoryBoundWarpsOnTwoSchedulers) { run_seeds({2, 48, 25, 20, 30, 60, 50}, 60); }

TEST(IssueStageDifferential, FarWakesOnOneSchedulerOf64Warps) { run_seeds({1, 64, 30, 60, 10, 20, 50}, 40); }

TEST(IssueStageDifferential, ProfileWarpsOnFourSchedulers) { run_seeds({4, 64, 40, 30, 15, 30, 0}, 40); }

TEST(IssueStageDifferential, ProgramWarpsOnEightSchedulers) { run_seeds({8, 64, 40, 30, 15, 30, 100}, 40); }

}  // namespace
}  // namespace gpupm
