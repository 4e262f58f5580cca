// Lock-step cross-check: rtl/stagger_unit.sv (Verilated, C++ mode) against the
// golden model gpupm::StaggerUnit, same inputs every cycle, every output (each
// SM's hold counter and age included) compared every cycle. Four parameter
// sets: the GTX480's (15 SMs, a report every 10 cycles, a 3-slot window), 32
// SMs every 16 cycles (the widest 5-bit ranks), 4 SMs reporting every cycle with
// a 1-slot window (back-to-back detections, reloads in the load cycle), and the
// Pascal config's 60 SMs (6-bit ranks and pending count).
//
// Stimulus, per report: bursts in which many SMs go 0 -> 1 together, within
// the window or spread just outside it, sized around k_min (k_min - 1, k_min,
// k_min + 1); SMs going idle and coming back (re-stamping while pending);
// random toggling; quiet stretches that let holds run out. CSR values (k_min,
// step, policy incl. the reserved code, groups incl. 0, enable) change between
// reports; off-strobe cycles get random inputs, which must be ignored. A
// directed phase drives the trigger counter into saturation where that is
// cheap (REPORT_PERIOD 1: k_min 0 for 65536 cycles).
//
// GPUPM_TB_CYCLES (default 200000), GPUPM_TB_SEED, GPUPM_TB_VCD, GPUPM_TB_COVERAGE:
// see tb_common.h.
#include "Vstagger_unit.h"
#include "Vstagger_unit_n32r16.h"
#include "Vstagger_unit_n4r1w1.h"
#include "Vstagger_unit_n33.h"
#include "Vstagger_unit_n60.h"
#include "Vstagger_unit_n64r1w1.h"
#include "gpupm/controllers/stagger_unit.h"
#include "gpupm/controllers/stagger_unit_ports.h"
#include "tb_common.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

namespace gpupm::tb {
namespace {

class StaggerStimulus {
 public:
  StaggerStimulus(const StaggerParams& p, uint64_t seed) : p_(p), rng_(seed), all_(StaggerPorts::sm_mask(p.n_sms)) {}

  // The inputs of a cycle; `strobe`: the unit reads them.
  StaggerIn next(bool strobe, uint64_t last_active) {
    StaggerIn in;
    if (!strobe) {  // ignored: anything
      in.sm_active = rng_();
      in.enable = coin();
      in.k_min = uint8_t(rng_());
      in.step_cycles = uint8_t(rng_());
      in.policy = StaggerPolicy(rng_() & 3);
      in.groups = uint8_t(rng_());
      return in;
    }
    if (coin(0.08)) csr();
    in = csr_;
    in.sm_active = activity(last_active);
    if (coin(0.05)) in.sm_active |= ~all_;  // bits above N_SMS: ignored
    return in;
  }
  void set_k_min(uint8_t k) { csr_.k_min = k; }
  void restart() { burst_left_ = 0; }

 private:
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng_); }
  int uni(int lo, int hi) { return hi < lo ? lo : std::uniform_int_distribution<int>(lo, hi)(rng_); }

  void csr() {
    csr_.enable = !coin(0.08);
    const int n = p_.n_sms;
    csr_.k_min = uint8_t(coin(0.85) ? uni(1, n) : uni(0, 63));
    csr_.step_cycles = uint8_t(coin(0.3) ? uni(0, 4) : coin(0.5) ? uni(5, 60) : uni(0, 255));
    csr_.policy = StaggerPolicy(uni(0, 3));
    csr_.groups = uint8_t(uni(0, 7) | (coin(0.05) ? 0xf8 : 0));
  }

  // The next report's sm_active.
  uint64_t activity(uint64_t last) {
    if (burst_left_ > 0) {  // a burst: idle SMs waking up, spread over a few reports
      --burst_left_;
      uint64_t wake = 0;
      for (int i = 0; i < p_.n_sms; ++i)
        if ((burst_set_ >> i & 1) && coin(burst_p_)) wake |= 1ull << i;
      burst_set_ &= ~wake;
      return (last & ~burst_sleep_) | wake;
    }
    const int r = uni(0, 99);
    if (r < 25) {  // start a burst around k_min
      const int k = std::max(1, int(csr_.k_min & 0x3f));
      const int size = std::min<int>(p_.n_sms, std::max(1, k + uni(-2, 1)));
      burst_set_ = 0;
      for (int placed = 0; placed < size;) {
        const int i = uni(0, p_.n_sms - 1);
        if (!(burst_set_ >> i & 1)) burst_set_ |= 1ull << i, ++placed;
      }
      burst_sleep_ = burst_set_;
      burst_left_ = uni(1, p_.window_slots + 2);  // within or just outside the window
      burst_p_ = coin(0.5) ? 1.0 : 0.5;
      return last & ~burst_set_;  // the burst's SMs go idle first
    }
    if (r < 45) return 0;                                      // all idle
    if (r < 60) return last ^ (1ull << uni(0, p_.n_sms - 1));  // one SM toggles
    if (r < 70) return last;                                   // steady
    return rng_() & all_;                                      // random
  }

  StaggerParams p_;
  std::mt19937_64 rng_;
  uint64_t all_;
  StaggerIn csr_;
  int burst_left_ = 0;
  uint64_t burst_set_ = 0, burst_sleep_ = 0;
  double burst_p_ = 1.0;
};

void declare_bins(Coverage& cov, const StaggerParams& p) {
  for (const char* b :
       {"trigger.at_k_min", "no_trigger.at_k_min_minus_1", "trigger.k_min_zero_empty", "expiry", "policy.uniform",
        "policy.cumulative", "policy.grouped", "policy.reserved_3", "grouped.groups_zero", "reload.while_holding",
        "reload.to_zero", "hold.runs_out", "enable_low.would_trigger", "reset.mid_run"})
    cov.declare(b);
  if (p.window_slots >= 2) {  // rise, fall, rise while still pending; ages differ at a trigger
    cov.declare("restamp");
    cov.declare("trigger.window_spread");
  }
  if (p.report_period == 1) {
    cov.declare("trigger.back_to_back");
    cov.declare("triggers.saturated");
  }
}

template <class Top>
void run_lockstep(const StaggerParams& p, const std::string& name) {
  const uint64_t cycles = run_cycles(), seed = run_seed();
  Harness<Top> h(name, std::getenv("GPUPM_TB_VCD"));
  StaggerUnit gold(p);
  StaggerStimulus stim(p, seed);
  Coverage cov;
  declare_bins(cov, p);
  std::mt19937_64 rng(seed ^ 0x57a6ull);
  const uint64_t late_reset = cycles - 1 - cycles / 20;
  // REPORT_PERIOD 1: a directed stretch with k_min 0 saturates the trigger counter.
  const bool saturate = p.report_period == 1;
  const uint64_t sat_begin = cycles / 4, sat_end = sat_begin + 0x10004;

  auto check = [&](uint64_t t, const char* when, const StaggerIn* in) {
    const Compare c =
        compare_raw(StaggerPorts::signals(), StaggerPorts::to_raw(gold.out()), StaggerPorts::read(h.top(), p));
    if (c.ok()) return true;
    ADD_FAILURE() << name << ": first mismatch in the outputs " << when << " cycle " << t << ", " << c.first() << " ("
                  << c.mismatches() << " signal(s) differ)\n"
                  << (in ? StaggerPorts::describe(*in, p, t) : std::string("after reset"))
                  << (h.vcd_path().empty() ? "" : "\nVCD: " + h.vcd_path());
    return false;
  };

  h.reset();
  if (!check(0, "at reset, before", nullptr)) return;
  uint64_t triggers = 0;
  for (uint64_t t = 0; t < cycles + (saturate ? 0x10004 : 0); ++t) {
    if (t == late_reset + (saturate ? 0x10004 : 0) || std::bernoulli_distribution(1e-5)(rng)) {
      h.reset();
      gold = StaggerUnit(p);
      stim.restart();
      cov.hit("reset.mid_run");
      if (!check(t, "at a mid-run reset, before", nullptr)) return;
    }
    const bool strobe = gold.cycles_to_strobe() == 0;
    const bool sat = saturate && t >= sat_begin && t < sat_end;
    StaggerIn in = stim.next(strobe, gold.out().last_active);
    if (sat) in.k_min = 0, in.enable = true;
    // The pending set the strobe's decision sees (aged, this report's added).
    StaggerUnit probe = gold;
    StaggerIn quiet = in;
    quiet.enable = false;
    const uint64_t seen = strobe ? probe.step(quiet).pending : 0;
    const StaggerOut before = gold.out();
    StaggerPorts::drive(h.top(), in, p);
    const StaggerOut& o = gold.step(in);
    h.tick();
    if (!check(t, "after the edge ending", &in)) return;

    // Coverage.
    const unsigned n_seen = unsigned(__builtin_popcountll(seen)), k = in.k_min & 0x3f;
    if (strobe) {
      const uint64_t rising = in.sm_active & StaggerPorts::sm_mask(p.n_sms) & ~before.last_active;
      if (p.window_slots >= 2) cov.hit_if((rising & before.pending) != 0, "restamp");
      cov.hit_if((before.pending & ~rising & ~seen) != 0, "expiry");
      cov.hit_if(in.enable && o.trigger && n_seen == k && k > 0, "trigger.at_k_min");
      cov.hit_if(in.enable && !o.trigger && n_seen + 1 == k, "no_trigger.at_k_min_minus_1");
      cov.hit_if(o.trigger && k == 0 && n_seen == 0, "trigger.k_min_zero_empty");
      cov.hit_if(!in.enable && n_seen >= k, "enable_low.would_trigger");
      if (o.trigger && n_seen > 1) {
        const char* pol[] = {"policy.uniform", "policy.cumulative", "policy.grouped", "policy.reserved_3"};
        cov.hit(pol[int(in.policy) & 3]);
        cov.hit_if(in.policy == StaggerPolicy::kGrouped && (in.groups & 7) == 0, "grouped.groups_zero");
        bool spread = false;
        for (unsigned i = 0; i < p.n_sms; ++i) spread |= (seen >> i & 1) && probe.out().age[i] > 0;
        if (p.window_slots >= 2) cov.hit_if(spread, "trigger.window_spread");
      }
      cov.hit_if(o.trigger && before.trigger, "trigger.back_to_back");
    }
    if (before.trigger) {  // the load edge
      for (unsigned i = 0; i < p.n_sms; ++i) {
        if (!(before.hold >> i & 1)) continue;
        const bool reloaded = o.hold_count[i] != before.hold_count[i] - 1;
        cov.hit_if(reloaded, "reload.while_holding");
        cov.hit_if(reloaded && o.hold_count[i] == 0, "reload.to_zero");
      }
    }
    cov.hit_if((before.hold & ~o.hold) != 0, "hold.runs_out");
    cov.hit_if(o.triggers == 0xffff && before.triggers == 0xffff && o.trigger, "triggers.saturated");
    triggers += o.trigger;
  }
  finish_coverage(
      name, std::to_string(cycles) + " cycles, " + std::to_string(triggers) + " triggers, seed " + std::to_string(seed),
      cov);
}

TEST(StaggerRtl, Lockstep15Sms) { run_lockstep<Vstagger_unit>({15, 10, 3}, "stagger_unit_n15"); }
TEST(StaggerRtl, Lockstep32SmsPeriod16) { run_lockstep<Vstagger_unit_n32r16>({32, 16, 3}, "stagger_unit_n32r16"); }
TEST(StaggerRtl, Lockstep4SmsPeriod1Window1) { run_lockstep<Vstagger_unit_n4r1w1>({4, 1, 1}, "stagger_unit_n4r1w1"); }
// The Pascal config's unit (configs/gpu/pascal_60sm.json: 60 SMs; the default report period and window).
TEST(StaggerRtl, Lockstep60SmsPascal) { run_lockstep<Vstagger_unit_n60>({60, 10, 3}, "stagger_unit_n60"); }
// The widest (7-bit pending count, a report every cycle: a detect in the trigger cycle) and
// the smallest above 32 SMs (a last step copy of one SM).
TEST(StaggerRtl, Lockstep64SmsPeriod1Window1) {
  run_lockstep<Vstagger_unit_n64r1w1>({64, 1, 1}, "stagger_unit_n64r1w1");
}
TEST(StaggerRtl, Lockstep33Sms) { run_lockstep<Vstagger_unit_n33>({33, 10, 3}, "stagger_unit_n33"); }

}  // namespace
}  // namespace gpupm::tb
