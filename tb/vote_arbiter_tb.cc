// Lock-step cross-check: rtl/vote_arbiter.sv (Verilated, C++ mode) against the
// golden model gpupm::VoteArbiter, same inputs every cycle, every output
// compared every cycle. Three sizes: the GTX480's 15 SMs, 4 (even: exact-half
// strict majorities and ties are frequent) and 64 (the maximum, a 128-bit
// vote vector).
//
// Stimulus: votes_valid pulses whose timing is biased towards the busy window
// (inside it, in its last cycle, in the first cycle after it); per pulse a
// wanted winner held for a few pulses (so levels walk to their limits and the
// five-state restores happen), built as a landslide, a plurality, a tie at the
// top, an exact half or i.i.d. votes including the reserved code; the mode
// switches now and then (so a target can sit on the far side of NORMAL); the
// transition latencies span 0 (never busy) to 4095. Cycles without
// votes_valid get fully random inputs, which must be ignored.
//
// GPUPM_TB_CYCLES (default 200000), GPUPM_TB_SEED, GPUPM_TB_VCD, GPUPM_TB_COVERAGE:
// see tb_common.h.
#include "Vvote_arbiter.h"
#include "Vvote_arbiter_n4.h"
#include "Vvote_arbiter_n60.h"
#include "Vvote_arbiter_n64.h"
#include "gpupm/controllers/vote_arbiter.h"
#include "gpupm/controllers/vote_arbiter_ports.h"
#include "tb_common.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

namespace gpupm::tb {
namespace {

class VoteStimulus {
 public:
  VoteStimulus(uint8_t n_sms, uint64_t seed) : n_(n_sms), rng_(seed) {}

  // Inputs for this cycle; `busy_remaining` = cycles the golden model stays busy
  // counting this one (0 = not busy), `busy_ended` = busy last cycle, not now.
  VoteArbiterIn next(uint16_t busy_remaining, bool busy_ended) {
    VoteArbiterIn in = noise();
    double p = 0.12;
    if (busy_remaining == 1) p = 0.3;
    else if (busy_remaining > 1) p = 0.01;
    else if (busy_ended) p = 0.5;
    if (!coin(p)) return in;
    in.votes_valid = true;
    if (coin(0.03)) mode_ = VfMode(1 - int(mode_));
    in.mode = mode_;
    in.rule = VoteRule(coin());
    in.sm_transition_cycles = pick_latency(true);
    in.mem_transition_cycles = pick_latency(false);
    if (coin(0.1)) in.sm_transition_cycles |= 0xf000;  // bits above [11:0] are ignored
    make_votes(in);
    return in;
  }

  void restart() { mode_ = VfMode::kPerformance; }

 private:
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng_); }
  int uni(int lo, int hi) { return hi < lo ? lo : std::uniform_int_distribution<int>(lo, hi)(rng_); }

  VoteArbiterIn noise() {
    VoteArbiterIn in;
    in.votes_valid = false;
    for (auto& v : in.votes) v = uint8_t(rng_() & 3);
    in.mode = VfMode(coin());
    in.rule = VoteRule(coin());
    in.sm_transition_cycles = uint16_t(rng_());
    in.mem_transition_cycles = uint16_t(rng_());
    return in;
  }

  uint16_t pick_latency(bool sm) {
    const int r = uni(0, 99);
    if (sm) {
      if (r < 10) return 0;
      if (r < 40) return uint16_t(uni(1, 3));
      if (r < 97) return uint16_t(uni(4, 40));
      return uint16_t(uni(41, 4095));
    }
    if (r < 50) return 0;
    if (r < 97) return uint16_t(uni(1, 20));
    return uint16_t(uni(21, 4095));
  }

  void make_votes(VoteArbiterIn& in) {
    if (regime_left_ == 0) {
      wanted_ = uni(0, 2);  // 0 NONE, 1 COMP, 2 MEM
      regime_left_ = uni(1, 4);
    }
    --regime_left_;
    std::vector<uint8_t> v(n_);
    auto rest = [&](int from, std::initializer_list<uint8_t> codes) {
      std::vector<uint8_t> c(codes);
      for (int i = from; i < n_; ++i) v[i] = c[uni(0, int(c.size()) - 1)];
    };
    const int kind = uni(0, 99);
    if (kind < 45) {  // landslide for the wanted code: wins under both rules
      const int k = uni(n_ / 2 + 1, n_);
      for (int i = 0; i < k; ++i) v[i] = uint8_t(wanted_ == 0 ? (coin(0.8) ? 0 : 3) : wanted_);
      if (wanted_ == 1) rest(k, {0, 2, 3});
      else if (wanted_ == 2) rest(k, {0, 1, 3});
      else rest(k, {1, 2});
    } else if (kind < 60) {  // tie at the top between two codes (three-way when N % 3 == 0)
      const int lo = (n_ + 2) / 3, hi = std::max(lo, n_ / 2);
      const int t = uni(lo, hi);
      static constexpr int kTies[3][3] = {{1, 2, 0}, {1, 0, 2}, {2, 0, 1}};  // two tied codes, then the third
      const auto& tie = kTies[uni(0, 2)];
      auto code = [&](int c) { return uint8_t(c == 0 && coin(0.3) ? 3 : c); };  // NONE or reserved
      int i = 0;
      for (int j = 0; j < t && i < n_; ++j) v[i++] = code(tie[0]);
      for (int j = 0; j < t && i < n_; ++j) v[i++] = code(tie[1]);
      while (i < n_) v[i++] = code(tie[2]);
    } else if (kind < 70 && n_ % 2 == 0) {  // exactly half: no strict majority
      const uint8_t half = uint8_t(uni(1, 2));
      for (int i = 0; i < n_ / 2; ++i) v[i] = half;
      rest(n_ / 2, {0, 3, uint8_t(3 - half)});
    } else {  // i.i.d. from a random profile (plurality without majority, NONE leads, ...)
      std::discrete_distribution<int> d({uni(0, 9) + 0.1, uni(0, 9) + 0.1, uni(0, 9) + 0.1, double(uni(0, 2))});
      for (auto& x : v) x = uint8_t(d(rng_));
    }
    std::shuffle(v.begin(), v.end(), rng_);
    for (int i = 0; i < n_; ++i) in.votes[i] = v[i];
  }

  int n_;
  std::mt19937_64 rng_;
  VfMode mode_ = VfMode::kPerformance;
  int wanted_ = 0, regime_left_ = 0;
};

const char* level_name(VfLevelCode l) {
  return l == VfLevelCode::kLow ? "low" : l == VfLevelCode::kHigh ? "high" : "normal";
}

template <class Top>
void drive(Top& t, const VoteArbiterIn& in, uint8_t n_sms) {
  VoteArbiterPorts::drive(t, in, VoteArbiterParams{n_sms});
}

template <class Top>
void compare(Compare& c, const VoteArbiterOut& e, Top& t) {
  c.check("sm_level_o", uint8_t(e.sm_level), t.sm_level_o);
  c.check("mem_level_o", uint8_t(e.mem_level), t.mem_level_o);
  c.check("sm_changed_o", e.sm_changed, t.sm_changed_o);
  c.check("mem_changed_o", e.mem_changed, t.mem_changed_o);
  c.check("sm_busy_o", e.sm_busy, t.sm_busy_o);
  c.check("mem_busy_o", e.mem_busy, t.mem_busy_o);
  c.check("busy_o", e.busy, t.busy_o);
  c.check("decided_o", e.decided, t.decided_o);
  c.check("winner_o", uint8_t(e.winner), t.winner_o);
  c.check("action_o", uint8_t(e.action), t.action_o);
  c.check("count_comp_o", e.counts.comp, t.count_comp_o);
  c.check("count_mem_o", e.counts.mem, t.count_mem_o);
  c.check("count_none_o", e.counts.none, t.count_none_o);
}

std::string describe(const VoteArbiterIn& in, uint8_t n_sms) {
  std::string votes;
  for (int i = n_sms - 1; i >= 0; --i) votes += char('0' + (in.votes[i] & 3));
  char b[256];
  std::snprintf(b, sizeof b, "inputs: votes_valid=%d votes(SM %d..0)=%s mode=%d rule=%d sm_T=%u mem_T=%u",
                in.votes_valid, n_sms - 1, votes.c_str(), int(in.mode), int(in.rule), in.sm_transition_cycles & 0xfff,
                in.mem_transition_cycles & 0xfff);
  return b;
}

void declare_bins(Coverage& cov, uint8_t n_sms) {
  for (const char* rule : {"plurality", "strict"})
    for (const char* w : {"none", "comp", "mem"}) cov.declare(std::string("winner.") + rule + "." + w);
  for (const char* mode : {"performance", "energy"})
    for (const char* a : {"none", "step_target", "restore_other", "at_limit"})
      cov.declare(std::string("action.") + mode + "." + a);
  for (const char* bin : {"action.ignored_busy",
                          "plurality.tie_at_top",
                          "plurality.none_leads",
                          "vote.reserved_code",
                          "restore.sm_high",
                          "restore.sm_low",
                          "restore.mem_high",
                          "restore.mem_low",
                          "at_limit.sm_high",
                          "at_limit.sm_low",
                          "at_limit.mem_high",
                          "at_limit.mem_low",
                          "state.normal",
                          "state.sm_high",
                          "state.sm_low",
                          "state.mem_high",
                          "state.mem_low",
                          "step.toward_normal",
                          "busy.ignored_in_last_cycle",
                          "busy.accepted_first_cycle_after",
                          "busy.zero_latency_move",
                          "reset.mid_run"})
    cov.declare(bin);
  if (n_sms % 2 == 0) cov.declare("strict.exactly_half");
}

template <class Top>
void run_lockstep(uint8_t n_sms, const std::string& name) {
  const uint64_t cycles = run_cycles();
  const uint64_t seed = run_seed();
  Harness<Top> h(name, std::getenv("GPUPM_TB_VCD"));
  VoteArbiter gold(VoteArbiterParams{n_sms});
  VoteStimulus stim(n_sms, seed);
  Coverage cov;
  declare_bins(cov, n_sms);
  std::mt19937_64 rng(seed ^ 0xa4b17e4ull);
  const uint64_t late_reset = cycles - 1 - cycles / 20;
  bool was_busy = false;
  uint64_t decisions = 0;

  auto check = [&](uint64_t t, const char* when, const VoteArbiterIn* in) {
    Compare c;
    compare(c, gold.out(), h.top());
    if (!c.ok()) {
      ADD_FAILURE() << name << ": first mismatch in the outputs " << when << " cycle " << t << ", " << c.first() << " ("
                    << c.mismatches() << " signal(s) differ)\n"
                    << (in ? describe(*in, n_sms) : std::string("after reset"))
                    << (h.vcd_path().empty() ? "" : "\nVCD: " + h.vcd_path());
      return false;
    }
    return true;
  };

  h.reset();
  if (!check(0, "at reset, before", nullptr)) return;
  for (uint64_t t = 0; t < cycles; ++t) {
    if (t == late_reset || std::bernoulli_distribution(1e-6)(rng)) {
      h.reset();
      gold.reset();
      stim.restart();
      was_busy = false;
      cov.hit("reset.mid_run");
      if (!check(t, "at a mid-run reset, before", nullptr)) return;
    }
    const bool prev_busy = was_busy;  // busy in the previous cycle
    const VoteArbiterOut before = gold.out();
    const uint16_t remaining = std::max(gold.sm_busy_count(), gold.mem_busy_count());
    const VoteArbiterIn in = stim.next(remaining, prev_busy && !before.busy);
    drive(h.top(), in, n_sms);
    gold.step(in);
    h.tick();
    if (!check(t, "after the edge ending", &in)) return;
    was_busy = before.busy;

    const VoteArbiterOut& o = gold.out();
    {
      const bool sm_off = o.sm_level != VfLevelCode::kNormal, mem_off = o.mem_level != VfLevelCode::kNormal;
      if (!sm_off && !mem_off) cov.hit("state.normal");
      if (sm_off) cov.hit(std::string("state.sm_") + level_name(o.sm_level));
      if (mem_off) cov.hit(std::string("state.mem_") + level_name(o.mem_level));
    }
    if (!in.votes_valid) continue;
    ++decisions;
    const VoteCounts& c = o.counts;
    const bool plurality = in.rule == VoteRule::kPlurality;
    const char* wname = o.winner == VfVote::kNone ? "none" : o.winner == VfVote::kComp ? "comp" : "mem";
    cov.hit(std::string("winner.") + (plurality ? "plurality." : "strict.") + wname);
    for (int i = 0; i < n_sms; ++i) cov.hit_if((in.votes[i] & 3) == 3, "vote.reserved_code");
    const int top = std::max({c.comp, c.mem, c.none});
    const int at_top = (c.comp == top) + (c.mem == top) + (c.none == top);
    cov.hit_if(plurality && at_top > 1, "plurality.tie_at_top");
    cov.hit_if(plurality && at_top == 1 && c.none == top, "plurality.none_leads");
    if (n_sms % 2 == 0) cov.hit_if(!plurality && (2 * c.comp == n_sms || 2 * c.mem == n_sms), "strict.exactly_half");
    if (before.busy) {
      cov.hit("action.ignored_busy");
      cov.hit_if(remaining == 1, "busy.ignored_in_last_cycle");
      continue;
    }
    cov.hit_if(prev_busy, "busy.accepted_first_cycle_after");
    const char* mode = in.mode == VfMode::kPerformance ? "performance" : "energy";
    const char* aname = o.action == ArbiterAction::kNone           ? "none"
                        : o.action == ArbiterAction::kStepTarget   ? "step_target"
                        : o.action == ArbiterAction::kRestoreOther ? "restore_other"
                                                                   : "at_limit";
    cov.hit(std::string("action.") + mode + "." + aname);
    if (o.action == ArbiterAction::kRestoreOther) {
      if (o.sm_changed) cov.hit(std::string("restore.sm_") + level_name(before.sm_level));
      if (o.mem_changed) cov.hit(std::string("restore.mem_") + level_name(before.mem_level));
    }
    if (o.action == ArbiterAction::kAtLimit) {
      const bool sm_target = (o.winner == VfVote::kComp) == (in.mode == VfMode::kPerformance);
      cov.hit(sm_target ? std::string("at_limit.sm_") + level_name(before.sm_level)
                        : std::string("at_limit.mem_") + level_name(before.mem_level));
    }
    if (o.action == ArbiterAction::kStepTarget) {
      cov.hit_if(o.sm_changed ? o.sm_level == VfLevelCode::kNormal : o.mem_level == VfLevelCode::kNormal,
                 "step.toward_normal");
      cov.hit_if(!o.busy, "busy.zero_latency_move");
    }
    cov.hit_if(o.action == ArbiterAction::kRestoreOther && !o.busy, "busy.zero_latency_move");
  }
  std::printf("[ coverage ] %s: %llu cycles, %llu decisions, seed %llu, %zu bins\n%s", name.c_str(),
              (unsigned long long)cycles, (unsigned long long)decisions, (unsigned long long)seed, cov.size(),
              cov.report().c_str());
  const auto missing = cov.missing();
  if (coverage_required()) {
    EXPECT_TRUE(missing.empty()) << name << ": " << missing.size()
                                 << " coverage bin(s) never hit, first: " << (missing.empty() ? "" : missing.front());
  }
}

TEST(VoteArbiterRtl, Lockstep15Sms) { run_lockstep<Vvote_arbiter>(15, "vote_arbiter_n15"); }
TEST(VoteArbiterRtl, Lockstep4Sms) { run_lockstep<Vvote_arbiter_n4>(4, "vote_arbiter_n4"); }
TEST(VoteArbiterRtl, Lockstep64Sms) { run_lockstep<Vvote_arbiter_n64>(64, "vote_arbiter_n64"); }
TEST(VoteArbiterRtl, Lockstep60SmsPascal) { run_lockstep<Vvote_arbiter_n60>(60, "vote_arbiter_n60"); }

}  // namespace
}  // namespace gpupm::tb
