// Lock-step cross-check: rtl/droop_predictor.sv (Verilated, C++ mode) against
// the golden model gpupm::DroopPredictor. Every cycle the candidate vector is
// offered slot by slot (eval() on each growing prefix, as the SM asks, the
// combinational outputs compared each time), then the edge (step(), registers
// compared). Three slot counts: 2 (the GTX480's two schedulers), 1 and 4.
//
// Stimulus: regimes of a few hundred cycles with their own CSR values (weights,
// thresholds from 0 to off, max_block, enable) and activity: idle gaps then
// bursts to full issue (ramps), random vectors, steady full issue, single-slot
// steps. CSR fields change now and then mid-regime; asynchronous resets are
// scattered in.
//
// GPUPM_TB_CYCLES (default 200000), GPUPM_TB_SEED, GPUPM_TB_VCD, GPUPM_TB_COVERAGE:
// see tb_common.h.
#include "Vdroop_predictor.h"
#include "Vdroop_predictor_s1.h"
#include "Vdroop_predictor_s4.h"
#include "gpupm/controllers/droop_predictor.h"
#include "gpupm/controllers/droop_predictor_ports.h"
#include "tb_common.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

namespace gpupm::tb {
namespace {

class DroopStimulus {
 public:
  DroopStimulus(uint8_t slots, uint64_t seed) : slots_(slots), rng_(seed) {}

  DroopPredIn next() {
    if (left_ == 0) new_regime();
    --left_;
    if (coin(0.01)) csr(cur_);  // a CSR write mid-regime
    DroopPredIn in = cur_;
    const uint8_t all = uint8_t((1u << slots_) - 1);
    switch (kind_) {
      case 0:  // ramps: idle gaps, then full issue
        if (phase_ == 0) phase_ = coin(0.1) ? uni(1, 12) : 0;
        in.cand_valid = phase_ > 0 ? 0 : all;
        if (phase_ > 0) --phase_;
        else if (coin(0.08)) phase_ = uni(1, 12);
        break;
      case 1: in.cand_valid = uint8_t(rng_() & all); break;
      case 2: in.cand_valid = coin(0.97) ? all : 0; break;
      default: in.cand_valid = coin(0.5) ? uint8_t(1u << uni(0, slots_ - 1)) : uint8_t(rng_() & all); break;
    }
    if (coin(0.05)) in.cand_valid |= uint8_t(rng_() & 0xf0);  // above SLOTS: ignored
    for (unsigned s = 0; s < kDroopPredMaxSlots; ++s)
      in.cand_class[s] = mixed_ ? DispatchClass(rng_() & 3) : DispatchClass(fixed_class_);
    return in;
  }

 private:
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng_); }
  int uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  uint8_t threshold() {
    const int r = uni(0, 9);
    if (r == 0) return 0;
    if (r == 1) return 255;
    if (r < 4) return uint8_t(uni(1, 30));
    return uint8_t(uni(0, 160));
  }
  void csr(DroopPredIn& c) {
    c.enable = !coin(0.1);
    for (auto& w : c.weight) w = coin(0.1) ? 63 : uint8_t(rng_() & (coin(0.1) ? 0xff : 0x3f));
    c.t2 = threshold(), c.t3 = threshold(), c.t4 = threshold();
    c.max_block = coin(0.1) ? 0 : uint8_t(rng_() & (coin(0.1) ? 0xff : 7));
  }
  void new_regime() {
    left_ = uni(50, 600);
    kind_ = uni(0, 3);
    mixed_ = coin(0.6);
    fixed_class_ = uni(0, 3);
    phase_ = 0;
    csr(cur_);
  }

  uint8_t slots_;
  std::mt19937_64 rng_;
  DroopPredIn cur_;
  int left_ = 0, kind_ = 0, phase_ = 0, fixed_class_ = 0;
  bool mixed_ = false;
};

void declare_bins(Coverage& cov, uint8_t slots) {
  for (const char* b : {"fire.d2_only", "fire.d3_only", "fire.d4_only", "fire.all_three", "predict.none",
                        "liveness.blocked", "liveness.forced_pass", "liveness.run_reaches_max_block",
                        "liveness.max_block_zero_passes", "enable_low.predict_ignored", "full_scale.estimate",
                        "full_scale.block_count_7", "idle.cycle", "ramp.reaches_full_issue", "reset.mid_run"})
    cov.declare(b);
  for (unsigned s = 0; s < slots; ++s) cov.declare("prefix.cut_at_slot" + std::to_string(s));
}

template <class Top>
void run_lockstep(uint8_t slots, const std::string& name) {
  const uint64_t cycles = run_cycles(), seed = run_seed();
  const DroopPredParams p{slots};
  Harness<Top> h(name, std::getenv("GPUPM_TB_VCD"));
  DroopPredictor gold(p);
  DroopStimulus stim(slots, seed);
  Coverage cov;
  declare_bins(cov, slots);
  std::mt19937_64 rng(seed ^ 0xd00bull);
  const uint64_t late_reset = cycles - 1 - cycles / 20;
  uint8_t prev_valid = 0;
  bool ramping = false, ramp_throttled = false;

  // Compares the outputs from `first` on (3: the registers only, when the
  // combinational ones still see other inputs).
  auto check = [&](uint64_t t, const char* when, const DroopPredOut& e, const DroopPredIn* in, std::size_t first = 0) {
    const Compare c =
        compare_raw(DroopPredPorts::signals(), DroopPredPorts::to_raw(e), DroopPredPorts::read(h.top(), p), first);
    if (c.ok()) return true;
    ADD_FAILURE() << name << ": first mismatch " << when << " cycle " << t << ", " << c.first() << " ("
                  << c.mismatches() << " signal(s) differ)\n"
                  << (in ? DroopPredPorts::describe(*in, p, t) : std::string("after reset"))
                  << (h.vcd_path().empty() ? "" : "\nVCD: " + h.vcd_path());
    return false;
  };

  h.reset();
  if (!check(0, "at reset, before", gold.regs(), nullptr, 3)) return;
  for (uint64_t t = 0; t < cycles; ++t) {
    if (t == late_reset || std::bernoulli_distribution(2e-5)(rng)) {
      h.reset();
      gold = DroopPredictor(p);
      cov.hit("reset.mid_run");
      if (!check(t, "at a mid-run reset, before", gold.regs(), nullptr, 3)) return;
    }
    const DroopPredIn in = stim.next();
    const uint8_t valid = in.cand_valid & uint8_t((1u << slots) - 1);
    // The SM's slot-by-slot questions: the growing prefixes, combinational outputs compared.
    for (unsigned k = 1; k < slots; ++k) {
      DroopPredIn part = in;
      part.cand_valid = valid & uint8_t((1u << k) - 1);
      if (!(valid >> (k - 1) & 1) || !std::bernoulli_distribution(0.5)(rng)) continue;
      DroopPredPorts::drive(h.top(), part, p);
      h.settle();
      if (!check(t, "in eval() of a prefix in", gold.eval(part), &part)) return;
    }
    DroopPredPorts::drive(h.top(), in, p);
    h.settle();
    const DroopPredOut before = gold.regs();
    const DroopPredOut e = gold.eval(in);
    if (!check(t, "combinational, in", e, &in)) return;
    gold.step(in);
    h.tick();
    // The combinational outputs read after the edge are of the next cycle: registers only.
    if (!check(t, "after the edge ending", gold.regs(), &in, 3)) return;

    // Coverage.
    const int pn = DroopPredictor::estimate(in, valid);
    const bool e2 = pn - before.h0 > in.t2, e3 = pn - before.h1 > in.t3, e4 = pn - before.h2 > in.t4;
    cov.hit_if(e2 && !e3 && !e4, "fire.d2_only");
    cov.hit_if(!e2 && e3 && !e4, "fire.d3_only");
    cov.hit_if(!e2 && !e3 && e4, "fire.d4_only");
    cov.hit_if(e2 && e3 && e4, "fire.all_three");
    cov.hit_if(valid && !e.predict, "predict.none");
    const bool forced = before.block_count >= (in.max_block & 7);
    if (e.throttled) {
      for (unsigned s = 0; s < slots; ++s)
        if ((valid >> s & 1) && !(e.admit >> s & 1)) {
          cov.hit("prefix.cut_at_slot" + std::to_string(s));
          break;
        }
    }
    cov.hit_if(valid && e.admit == 0, "liveness.blocked");
    cov.hit_if(in.enable && e.predict && forced && (in.max_block & 7) > 0, "liveness.forced_pass");
    cov.hit_if(in.enable && e.predict && (in.max_block & 7) == 0, "liveness.max_block_zero_passes");
    cov.hit_if(gold.regs().block_count == (in.max_block & 7) && gold.regs().block_count > 0,
               "liveness.run_reaches_max_block");
    cov.hit_if(gold.regs().block_count == 7, "full_scale.block_count_7");
    cov.hit_if(!in.enable && e.predict, "enable_low.predict_ignored");
    cov.hit_if(pn == 63 * slots, "full_scale.estimate");
    cov.hit_if(valid == 0, "idle.cycle");
    const uint8_t all = uint8_t((1u << slots) - 1);
    if (prev_valid == 0 && valid == all) {
      ramping = true;
      ramp_throttled = false;
    } else if (valid != all) {
      ramping = false;
    }
    if (ramping && e.throttled) ramp_throttled = true;
    if (ramping && !e.throttled && ramp_throttled) {  // throttled on the way up, now full issue
      cov.hit("ramp.reaches_full_issue");
      ramping = false;
    }
    prev_valid = valid;
  }
  finish_coverage(name, std::to_string(cycles) + " cycles, seed " + std::to_string(seed), cov);
}

TEST(DroopPredRtl, Lockstep2Slots) { run_lockstep<Vdroop_predictor>(2, "droop_predictor_s2"); }
TEST(DroopPredRtl, Lockstep1Slot) { run_lockstep<Vdroop_predictor_s1>(1, "droop_predictor_s1"); }
TEST(DroopPredRtl, Lockstep4Slots) { run_lockstep<Vdroop_predictor_s4>(4, "droop_predictor_s4"); }

}  // namespace
}  // namespace gpupm::tb
