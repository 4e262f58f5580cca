// Cross-check of rtl/eq_decision.sv (Verilated, combinational) against the
// golden model gpupm::decide() (sc_model/controllers/eq_decision.h): one input
// vector per step, eval(), the three outputs compared. eq_sm_block's
// testbench reaches Algorithm 1 only through 32-sample epochs of plausible
// warp states; this one drives the sums directly, at their full range and at
// every comparison's edge. Three widths: the default (11-bit sums, L = 5), the
// widest (16-bit sums, L = 9: sums wider than W_cta << L) and a narrow one
// (5-bit sums, L = 1: W_cta << L wider than the sums).
//
// Stimulus: per vector a threshold mode and W_cta (0 and 31 favoured), then
// either random sums over the full width, the corners (all zero, all ones), or
// sums built at one line of Algorithm 1: Alg. 1's n equal to that line's
// threshold or one above it, with the earlier lines held off so the line is
// reached (nMem vs W_cta, nALU vs W_cta, nMem vs 2, 2 nWaiting vs nActive, the
// nALU/nMem tie, nActive = 0). In truncated mode each n becomes a sum with
// random low bits (S >> L = n).
//
// GPUPM_TB_CYCLES (vectors, default 200000), GPUPM_TB_SEED, GPUPM_TB_COVERAGE:
// see tb_common.h (no VCD: the failure message lists every input).
#include "Veq_decision.h"
#include "Veq_decision_s16e9.h"
#include "Veq_decision_s5e1.h"
#include "gpupm/controllers/eq_decision.h"
#include "tb_common.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

namespace gpupm::tb {
namespace {

struct DecisionIn {
  EqSums sums;
  uint8_t w_cta = 0;
  ThresholdMode mode = ThresholdMode::kExactSums;
};

// Alg. 1's n's and thresholds of an input, as the RTL header describes them (for the stimulus and coverage).
struct AlgView {
  uint32_t active, waiting, alu, mem, w_thr, two_thr;
  AlgView(const DecisionIn& in, unsigned epoch_log2) {
    const bool trunc = in.mode == ThresholdMode::kTruncatedAverages;
    const unsigned shift = trunc ? epoch_log2 : 0, scale_log2 = trunc ? 0 : epoch_log2;
    active = in.sums.active >> shift;
    waiting = in.sums.waiting >> shift;
    alu = in.sums.xalu >> shift;
    mem = in.sums.xmem >> shift;
    w_thr = uint32_t(in.w_cta & kWctaMask) << scale_log2;
    two_thr = 2u << scale_log2;
  }
};

class DecisionStimulus {
 public:
  DecisionStimulus(unsigned sum_w, unsigned epoch_log2, uint64_t seed)
      : sum_max_(uint32_t(low_mask(sum_w))), epoch_log2_(epoch_log2), rng_(seed) {}

  DecisionIn next() {
    DecisionIn in;
    in.mode = ThresholdMode(coin());
    const int w = uni(0, 9);
    in.w_cta = uint8_t(w == 0 ? 0 : w == 1 ? 31 : uni(0, 31));
    const int kind = uni(0, 99);
    if (kind < 25) {
      in.sums = {any(), any(), any(), any()};
    } else if (kind < 30) {
      const uint16_t v = coin() ? 0 : uint16_t(sum_max_);
      in.sums = {v, v, v, v};
    } else {
      at_line(in, uni(0, 5));
    }
    return in;
  }

 private:
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng_); }
  uint32_t uni(uint32_t lo, uint32_t hi) {
    return hi <= lo ? lo : std::uniform_int_distribution<uint32_t>(lo, hi)(rng_);
  }
  uint16_t any() { return uint16_t(uni(0, sum_max_)); }

  // The largest n a sum can carry in this mode.
  uint32_t n_max(const DecisionIn& in) const {
    return in.mode == ThresholdMode::kTruncatedAverages ? sum_max_ >> epoch_log2_ : sum_max_;
  }
  // A sum whose Alg. 1 n is `n` (clipped to the width): truncated mode adds random low bits.
  uint16_t sum_of(const DecisionIn& in, uint32_t n) {
    n = std::min(n, n_max(in));
    if (in.mode == ThresholdMode::kExactSums) return uint16_t(n);
    const uint32_t low = coin(0.3) ? 0 : coin(0.3) ? (1u << epoch_log2_) - 1 : uni(0, (1u << epoch_log2_) - 1);
    return uint16_t(std::min<uint32_t>((n << epoch_log2_) | low, sum_max_));
  }
  uint32_t edge(uint32_t threshold) { return threshold + uint32_t(coin()); }  // at it, or one above

  // Sums whose evaluation reaches Alg. 1's line `line` and sits at its comparison's edge.
  void at_line(DecisionIn& in, int line) {
    const AlgView v(in, epoch_log2_);
    const uint32_t below_both = std::min(v.w_thr, v.two_thr);
    uint32_t active = uni(0, n_max(in)), waiting = uni(0, n_max(in));
    uint32_t alu = uni(0, v.w_thr), mem = uni(0, below_both);
    switch (line) {
      case 0:
        mem = edge(v.w_thr);
        alu = uni(0, n_max(in));
        break;  // line 7: nMem > W_cta
      case 1:
        mem = uni(0, v.w_thr);
        alu = edge(v.w_thr);
        break;                                                  // line 10: nALU > W_cta
      case 2: mem = std::min(edge(v.two_thr), v.w_thr); break;  // line 12: nMem > 2
      case 3: waiting = active / 2 + uni(0, 1); break;          // line 14: 2 nWaiting vs nActive
      case 4:                                                   // lines 16/18: nALU vs nMem
        waiting = active / 2 + 1 + uni(0, 3);
        alu = std::min(mem + uni(0, 1), v.w_thr);
        break;
      default:
        active = 0;
        waiting = uni(0, 1) ? 0 : uni(0, n_max(in));
        break;  // line 21: nActive = 0
    }
    in.sums = {sum_of(in, active), sum_of(in, waiting), sum_of(in, alu), sum_of(in, mem)};
  }

  uint32_t sum_max_;
  unsigned epoch_log2_;
  std::mt19937_64 rng_;
};

template <class Top>
class Combinational {
 public:
  explicit Combinational(const std::string& name) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(0);
    top_ = std::make_unique<Top>(ctx_.get(), name.c_str());
  }
  ~Combinational() { top_->final(); }
  Top& eval(const DecisionIn& in) {
    set_port(top_->sum_active_i, in.sums.active);
    set_port(top_->sum_waiting_i, in.sums.waiting);
    set_port(top_->sum_xalu_i, in.sums.xalu);
    set_port(top_->sum_xmem_i, in.sums.xmem);
    set_port(top_->w_cta_i, in.w_cta & kWctaMask);
    set_port(top_->truncate_i, uint8_t(in.mode));
    top_->eval();
    return *top_;
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
};

std::string describe(const DecisionIn& in) {
  char b[160];
  std::snprintf(b, sizeof b, "inputs: sum_active=%u sum_waiting=%u sum_xalu=%u sum_xmem=%u w_cta=%u truncate=%d",
                in.sums.active, in.sums.waiting, in.sums.xalu, in.sums.xmem, in.w_cta & kWctaMask, int(in.mode));
  return b;
}

const char* mode_name(ThresholdMode m) { return m == ThresholdMode::kExactSums ? "exact" : "truncated"; }

constexpr EqBranch kBranches[] = {
    EqBranch::kDegenerateNone, EqBranch::kMemDefinite, EqBranch::kCompDefinite, EqBranch::kMemLikely,
    EqBranch::kUnsatComp,      EqBranch::kUnsatMem,    EqBranch::kIdle};
constexpr const char* kEdges[] = {"mem_definite_equal", "comp_definite_equal", "mem_likely_equal", "unsat_equal",
                                  "alu_equals_mem"};

void declare_bins(Coverage& cov) {
  for (ThresholdMode m : {ThresholdMode::kExactSums, ThresholdMode::kTruncatedAverages}) {
    for (EqBranch b : kBranches) cov.declare(std::string("branch.") + mode_name(m) + "." + branch_name(b));
    for (const char* e : kEdges) cov.declare(std::string("edge.") + mode_name(m) + "." + e);
  }
  for (const char* bin : {"w_cta.zero", "w_cta.max", "sums.all_ones", "truncate.low_bits_dropped"}) cov.declare(bin);
}

// The comparisons that decide the branch, at equality (the outcome a > or a >= would flip).
void hit_edges(Coverage& cov, const DecisionIn& in, const AlgView& v, unsigned sum_w) {
  const std::string m = std::string("edge.") + mode_name(in.mode) + ".";
  cov.hit_if(v.mem == v.w_thr, m + "mem_definite_equal");
  const bool past7 = v.mem <= v.w_thr, past10 = past7 && v.alu <= v.w_thr;
  cov.hit_if(past7 && v.alu == v.w_thr, m + "comp_definite_equal");
  cov.hit_if(past10 && v.mem == v.two_thr, m + "mem_likely_equal");
  const bool past12 = past10 && v.mem <= v.two_thr;
  cov.hit_if(past12 && 2 * v.waiting == v.active, m + "unsat_equal");
  cov.hit_if(past12 && 2 * v.waiting > v.active && v.alu == v.mem, m + "alu_equals_mem");
  cov.hit_if((in.w_cta & kWctaMask) == 0, "w_cta.zero");
  cov.hit_if((in.w_cta & kWctaMask) == 31, "w_cta.max");
  const uint16_t all = uint16_t(low_mask(sum_w));
  cov.hit_if(in.sums.active == all && in.sums.waiting == all && in.sums.xalu == all && in.sums.xmem == all,
             "sums.all_ones");
  cov.hit_if(in.mode == ThresholdMode::kTruncatedAverages && (in.sums.xmem & 1) && v.mem == v.w_thr,
             "truncate.low_bits_dropped");
}

template <class Top>
void run_lockstep(unsigned sum_w, unsigned epoch_log2, const std::string& name) {
  const uint64_t vectors = run_cycles(), seed = run_seed();
  Combinational<Top> rtl(name);
  DecisionStimulus stim(sum_w, epoch_log2, seed);
  Coverage cov;
  declare_bins(cov);
  for (uint64_t t = 0; t < vectors; ++t) {
    const DecisionIn in = stim.next();
    const EqDecision e = decide(in.sums, in.w_cta, in.mode, uint8_t(epoch_log2));
    const Top& got = rtl.eval(in);
    Compare c;
    c.check("block_delta_o", uint8_t(e.block_delta) & 3u, got.block_delta_o);
    c.check("vote_o", uint8_t(e.vote), got.vote_o);
    c.check("branch_o", uint8_t(e.branch), got.branch_o);
    if (!c.ok()) {
      ADD_FAILURE() << name << ": first mismatch at vector " << t << ", " << c.first() << " (" << c.mismatches()
                    << " signal(s) differ)\n"
                    << describe(in);
      return;
    }
    cov.hit(std::string("branch.") + mode_name(in.mode) + "." + branch_name(e.branch));
    hit_edges(cov, in, AlgView(in, epoch_log2), sum_w);
  }
  finish_coverage(name, std::to_string(vectors) + " vectors, seed " + std::to_string(seed), cov);
}

TEST(EqDecisionRtl, Lockstep11BitSums32Samples) { run_lockstep<Veq_decision>(11, 5, "eq_decision_s11e5"); }
TEST(EqDecisionRtl, Lockstep16BitSums512Samples) { run_lockstep<Veq_decision_s16e9>(16, 9, "eq_decision_s16e9"); }
TEST(EqDecisionRtl, Lockstep5BitSums2Samples) { run_lockstep<Veq_decision_s5e1>(5, 1, "eq_decision_s5e1"); }

}  // namespace
}  // namespace gpupm::tb
