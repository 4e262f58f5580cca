// Lock-step cross-check: rtl/eq_sm_block.sv (Verilated, C++ mode) against the
// golden model gpupm::EqSmBlock, same inputs every cycle, every output compared
// every cycle. Three parameter sets: the default (48 warps, 128-cycle samples,
// 32-sample epochs) and two short-epoch ones that reach many more epochs per
// cycle and the parameter corners (64 warps; a sample every cycle, odd warps).
//
// Stimulus: a directed preamble of epochs that walks every Algorithm 1 branch
// in both threshold modes and every hysteresis path, then constrained-random
// epochs. Each epoch has an intent (a branch, a threshold boundary, random or
// chaotic vectors) from which per-sample warp counts are drawn; the per-warp
// vectors are then built bit by bit at random positions, with decoys that
// must not count (inactive warps with random flags, issued warps, bits above
// WARPS) and either X definition. Cycles that are not read (off the sample or
// epoch strobe) get fully random inputs. kernel_start, enable low, CSR changes
// and asynchronous resets are scattered in.
//
// GPUPM_TB_CYCLES (default 200000), GPUPM_TB_SEED, GPUPM_TB_VCD, GPUPM_TB_COVERAGE:
// see tb_common.h.
#include "Veq_sm_block.h"
#include "Veq_sm_block_w13s0e1.h"
#include "Veq_sm_block_w64.h"
#include "Veq_sm_block_w64s2e3.h"
#include "gpupm/controllers/eq_decision.h"
#include "gpupm/controllers/eq_sm_block.h"
#include "gpupm/controllers/eq_sm_block_ports.h"
#include "tb_common.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <deque>
#include <random>

namespace gpupm::tb {
namespace {

enum class Intent {
  // clang-format off
  kMemDef, kCompDef, kMemLikely, kUnsatComp, kUnsatMem, kIdle, kDegenerate,
  kBoundary, kRandom, kChaos,
  // clang-format on
};

constexpr int kNoKs = -1;      // no kernel_start in the epoch
constexpr int kKsStrobe = -2;  // kernel_start on the epoch strobe
constexpr int kKsMid = -3;     // kernel_start in a random cycle before the strobe

struct Counts {
  int a = 0, wt = 0, xa = 0, xm = 0;  // effective per-sample counts
};

// Which comparison of Alg. 1 a boundary epoch sits on.
enum class Edge { kMemDef, kCompDef, kMemLikely, kUnsat, kAluVsMem };

struct EpochPlan {
  Intent intent = Intent::kRandom;
  uint8_t w_cta = 4;
  ThresholdMode mode = ThresholdMode::kExactSums;
  bool enable = true;
  int max_at_strobe = -1;  // -1: the running kernel's max_blocks
  int ks = kNoKs;          // kernel_start: epoch-relative cycle, or kKsStrobe / kKsMid
  uint8_t ks_max = 0;
  int defs = -1;          // -1: random per sample; else bit 0 xalu_def, bit 1 xmem_def
  bool directed = false;  // preamble: a boundary epoch on which the two threshold modes disagree
  // Drawn when the epoch starts.
  Counts base;
  Edge edge = Edge::kMemDef;
  double bump_p = 0;     // boundary: probability that a sample is one over the edge
  double density = 0.5;  // chaos
};

class EqStimulus {
 public:
  EqStimulus(const EqSmParams& p, uint64_t seed)
      : p_(p),
        rng_(seed),
        W_(p.warps),
        cycle_mask_((1u << (p.sample_period_log2 + p.epoch_samples_log2)) - 1),
        sample_mask_((1u << p.sample_period_log2) - 1) {
    build_preamble();
  }

  // True until the directed preamble's last epoch has ended.
  bool in_preamble() const { return epochs_started_ <= preamble_size_; }

  // The inputs of the cycle whose cycle-counter value is `counter`. Sample
  // strobe: the cycle before counter[SAMPLE_LOG2-1:0] is all ones; epoch
  // strobe: counter all ones (the cycle after the epoch's last sample).
  EqSmIn next(uint16_t counter) {
    if ((counter == 0 && !next_started_) || !started_) start_epoch(counter);
    started_ = true;
    next_started_ = false;
    const bool sample = ((counter + 1u) & sample_mask_) == sample_mask_;
    const bool epoch = counter == cycle_mask_;
    EqSmIn in = noise();
    if (epoch) {
      in.w_cta = plan_.w_cta;
      in.threshold_mode = plan_.mode;
      in.enable = plan_.enable;
      in.max_blocks = uint8_t(plan_.max_at_strobe >= 0 ? plan_.max_at_strobe : kernel_max_);
      // Upper bits of the 5- and 4-bit fields must be ignored.
      if (coin(0.1)) in.w_cta |= 0xe0;
      if (coin(0.1)) in.max_blocks |= 0xf0;
    }
    if (int(counter) == ks_cycle_) {
      in.kernel_start = true;
      in.max_blocks = plan_.ks_max;
      kernel_max_ = plan_.ks_max;
    }
    if (sample) {
      // A sample every cycle (SAMPLE_LOG2 = 0): the epoch strobe's own sample
      // is the next epoch's first, so that epoch's plan starts here.
      if (epoch) {
        start_epoch(0);
        next_started_ = true;
      }
      make_sample(in);
    }
    return in;
  }

  // Forces a new epoch plan at the next call (after an asynchronous reset).
  void restart() {
    started_ = false;
    next_started_ = false;
  }

 private:
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng_); }
  int uni(int lo, int hi) { return hi < lo ? lo : std::uniform_int_distribution<int>(lo, hi)(rng_); }
  uint64_t bits64() { return rng_(); }
  uint64_t mask() const { return low_mask(W_); }

  EqSmIn noise() {
    EqSmIn in;
    in.warp_valid = bits64();
    in.warp_paused = bits64();
    in.head_ready = bits64();
    in.head_is_mem = bits64();
    in.head_is_alu = bits64();
    in.issued = bits64();
    in.lsu_can_accept = coin();
    in.w_cta = uint8_t(rng_());
    in.max_blocks = uint8_t(rng_());
    in.kernel_start = false;
    in.enable = coin();
    in.xalu_def = XaluDef(coin());
    in.xmem_def = XmemDef(coin());
    in.threshold_mode = ThresholdMode(coin());
    return in;
  }

  // ---- epoch plans -------------------------------------------------------
  void add(Intent i, int mode, bool enable = true, int ks = kNoKs, uint8_t ks_max = 0, int max_at_strobe = -1) {
    EpochPlan e;
    e.intent = i;
    e.mode = ThresholdMode(mode);
    e.enable = enable;
    e.ks = ks;
    e.ks_max = ks_max;
    e.max_at_strobe = max_at_strobe;
    queue_.push_back(e);
  }

  // Every branch in both threshold modes and every hysteresis path, in order.
  void build_preamble() {
    using I = Intent;
    add(I::kIdle, 0, true, 0, 4);  // kernel_start in the first cycle: numBlocks 4
    add(I::kMemDef, 1);            // run 1 down
    add(I::kMemDef, 0);            // run 2
    add(I::kMemDef, 1);            // commit down: 3
    add(I::kUnsatComp, 0);         // run 1 up
    add(I::kMemDef, 1);            // flip: run 1 down
    add(I::kUnsatMem, 0);          // flip: run 1 up
    add(I::kUnsatComp, 1);         // run 2
    add(I::kUnsatMem, 1);          // commit up: 4
    add(I::kUnsatComp, 0);         // at max_blocks: bound
    add(I::kCompDef, 0);
    add(I::kCompDef, 1);
    add(I::kMemLikely, 0);
    add(I::kMemLikely, 1);
    add(I::kDegenerate, 0);
    add(I::kDegenerate, 1);
    add(I::kIdle, 1);
    add(I::kMemDef, 0);                      // run 1 down
    add(I::kMemDef, 1, false);               // enable low: cleared
    add(I::kMemDef, 0, true, kKsMid, 1);     // numBlocks 1: bound at 1
    add(I::kMemDef, 1, true, kKsMid, 6);     // numBlocks 6, run 1 down
    add(I::kMemDef, 0);                      // run 2
    add(I::kMemDef, 1, true, kKsStrobe, 6);  // would commit: kernel_start wins
    add(I::kMemDef, 0);                      // run 1
    add(I::kDegenerate, 1);                  // no change wanted: cleared
    add(I::kMemDef, 0, true, kNoKs, 0, 2);   // numBlocks 6 above max_blocks 2: out of range
    add(I::kUnsatComp, 1, true, kNoKs, 0, 2);
    for (int k = 0; k < 8; ++k) {
      add(I::kBoundary, k & 1);
      queue_.back().directed = true;
    }
    preamble_size_ = queue_.size();
  }

  // Random phase: runs of epochs that want the same numBlocks change.
  EpochPlan random_plan() {
    if (regime_left_ == 0) {
      regime_ = uni(0, 3);  // 0 up, 1 down, 2 no change, 3 mixed
      regime_left_ = uni(1, 5);
    }
    --regime_left_;
    EpochPlan e;
    switch (regime_) {
      case 0: e.intent = coin() ? Intent::kUnsatComp : Intent::kUnsatMem; break;
      case 1: e.intent = Intent::kMemDef; break;
      case 2: {
        static constexpr Intent kNone[] = {Intent::kCompDef, Intent::kMemLikely, Intent::kDegenerate, Intent::kIdle};
        e.intent = kNone[uni(0, 3)];
        break;
      }
      default: {
        const int r = uni(0, 9);
        e.intent = r < 5 ? Intent::kBoundary : r < 8 ? Intent::kRandom : Intent::kChaos;
      }
    }
    e.mode = ThresholdMode(coin());
    e.enable = !coin(0.05);
    if (coin(0.08)) {
      e.ks = coin(0.3) ? kKsStrobe : kKsMid;
      e.ks_max = uint8_t(coin(0.8) ? uni(1, 8) : uni(0, 15));
    }
    if (coin(0.05)) e.max_at_strobe = uni(0, 15);
    if (coin(0.3)) e.defs = uni(0, 3);
    return e;
  }

  // w_cta for which the intent is reachable with W warps.
  uint8_t pick_w(Intent i) {
    const int wmax = std::min(31, W_ - 1);
    switch (i) {
      case Intent::kMemDef:
      case Intent::kCompDef: return uint8_t(uni(0, wmax));
      case Intent::kMemLikely: return uint8_t(uni(3, 31));
      case Intent::kUnsatComp: return uint8_t(uni(1, 31));
      default: return uint8_t(coin(0.9) ? uni(1, wmax) : uni(0, 31));
    }
  }

  void start_epoch(uint16_t counter) {
    ++epochs_started_;
    if (!queue_.empty()) {
      plan_ = queue_.front();
      queue_.pop_front();
    } else {
      plan_ = random_plan();
    }
    plan_.w_cta = pick_w(plan_.intent);
    ks_cycle_ = -1;
    if (plan_.ks == kKsStrobe) ks_cycle_ = int(cycle_mask_);
    else if (plan_.ks == kKsMid) ks_cycle_ = uni(counter, std::max<int>(counter, int(cycle_mask_) - 1));
    else if (plan_.ks >= 0) ks_cycle_ = plan_.ks;
    draw_base();
  }

  // Constant per-sample counts for a branch intent (feasible for W, w_cta).
  void draw_base() {
    const int W = W_, w = plan_.w_cta;
    Counts c;
    auto fill_rest = [&](Counts& k, int wt_max) {
      k.wt = uni(0, std::min(wt_max, W - k.xa - k.xm));
      k.a = k.wt + k.xa + k.xm + uni(0, W - k.wt - k.xa - k.xm);
    };
    // Unsaturated: 2*wt > a with a = wt + xa + xm + o.
    auto unsat = [&](Counts& k) {
      const int busy = k.xa + k.xm;
      const int o = uni(0, std::max(0, std::min(2, (W - 1) / 2 - busy)));
      k.wt = uni(busy + o + 1, std::max(busy + o + 1, W - busy - o));
      k.a = k.wt + busy + o;
    };
    switch (plan_.intent) {
      case Intent::kMemDef:
        c.xm = uni(w + 1, std::min(W, w + 4));
        c.xa = uni(0, W - c.xm);
        fill_rest(c, W);
        break;
      case Intent::kCompDef:
        c.xm = uni(0, std::min({w, 2, W - w - 1}));
        c.xa = uni(w + 1, std::min(W - c.xm, w + 4));
        fill_rest(c, W);
        break;
      case Intent::kMemLikely:
        c.xm = uni(3, std::min(w, std::min(W, 8)));
        c.xa = uni(0, std::min(w, W - c.xm));
        fill_rest(c, W);
        break;
      case Intent::kUnsatComp:
        do {
          c.xm = uni(0, std::min(2, w - 1));
          c.xa = uni(c.xm + 1, std::min(w, c.xm + 3));
        } while (2 * (c.xa + c.xm) + 1 > W && c.xm + c.xa > 1);
        unsat(c);
        break;
      case Intent::kUnsatMem:
        do {
          c.xm = uni(0, std::min(2, w));
          c.xa = uni(0, c.xm);
        } while (2 * (c.xa + c.xm) + 1 > W);
        unsat(c);
        break;
      case Intent::kDegenerate:
        c.xm = uni(0, std::min(2, w));
        c.xa = uni(0, std::min(w, 3));
        c.wt = uni(0, std::min(4, (W - c.xa - c.xm) / 2));
        c.a = c.wt + c.xa + c.xm + std::max(c.wt - c.xa - c.xm, 0);
        c.a = uni(std::max(c.a, 1), std::max(c.a, std::min(W, 2 * c.wt + 8)));
        break;
      case Intent::kIdle: break;
      case Intent::kBoundary: draw_boundary(c); break;
      case Intent::kRandom: break;
      case Intent::kChaos: plan_.density = std::array<double, 4>{0.05, 0.5, 0.95, 0.3}[uni(0, 3)]; break;
    }
    plan_.base = c;
  }

  // Every sample sits on one Alg. 1 comparison; some samples one over it, so
  // the exact and the truncated readings disagree.
  void draw_boundary(Counts& c) {
    const int W = W_;
    int w = plan_.w_cta;
    const double ps[] = {0.0, 1.0 / (1u << p_.epoch_samples_log2), 0.5, 1.0};
    plan_.bump_p = ps[uni(0, 3)];
    plan_.edge = Edge(uni(0, 4));
    if (plan_.directed) {  // half the samples over one of the first four edges: the modes disagree
      plan_.bump_p = 0.5;
      plan_.edge = Edge(uni(0, 3));
    }
    switch (plan_.edge) {
      case Edge::kMemDef:
        w = std::min(w, W - 1);
        c.xm = w;
        c.xa = uni(0, std::min(w, W - w - 1));
        break;
      case Edge::kCompDef:
        w = std::min(w, W - 3);
        c.xm = uni(0, std::min(2, w));
        c.xa = w;
        break;
      case Edge::kMemLikely:
        w = std::max(w, 3);
        c.xm = 2;
        c.xa = uni(0, std::min(w, W - 3));
        break;
      case Edge::kUnsat:
      case Edge::kAluVsMem:
        w = std::max(w, 3);
        c.xm = uni(0, 2);
        c.xa = plan_.edge == Edge::kAluVsMem ? c.xm : uni(0, 2);
        break;
    }
    plan_.w_cta = uint8_t(std::max(w, 0));
    const int busy = c.xa + c.xm;
    if (plan_.edge == Edge::kUnsat) {
      // a = 2*wt exactly (o = wt - busy >= 1, to move one warp into waiting).
      c.wt = uni(busy + 1, std::max(busy + 1, W / 2));
      c.a = 2 * c.wt;
    } else {
      c.wt = uni(0, std::max(0, (W - busy - 1) / 2));
      c.a = std::min(W - 1, busy + c.wt + uni(0, W));
      if (plan_.edge == Edge::kAluVsMem) c.a = std::max(busy + c.wt, std::min(W - 1, 2 * c.wt - 1));
    }
    c.a = std::max(c.a, busy + c.wt);
  }

  Counts sample_counts() {
    Counts c = plan_.base;
    switch (plan_.intent) {
      case Intent::kRandom: {
        c.a = uni(0, W_);
        std::array<int*, 3> parts = {&c.wt, &c.xa, &c.xm};
        std::shuffle(parts.begin(), parts.end(), rng_);
        int left = c.a;
        for (int* p : parts) left -= (*p = uni(0, left));
        break;
      }
      case Intent::kBoundary:
        if (coin(plan_.bump_p)) {
          switch (plan_.edge) {
            case Edge::kMemDef: ++c.xm; break;
            case Edge::kCompDef: ++c.xa; break;
            case Edge::kMemLikely: ++c.xm; break;
            case Edge::kUnsat: ++c.wt; break;  // one of the others starts waiting
            case Edge::kAluVsMem:
              ++c.xa;
              ++c.a;
              break;
          }
          c.a = std::max(c.a, c.wt + c.xa + c.xm);
          if (c.a > W_) c = plan_.base;
        }
        break;
      default: break;
    }
    return c;
  }

  // ---- one sample's vectors -----------------------------------------------
  void make_sample(EqSmIn& in) {
    const int defs = plan_.defs >= 0 ? plan_.defs : uni(0, 3);
    in.xalu_def = XaluDef(defs & 1);
    in.xmem_def = XmemDef((defs >> 1) & 1);
    const uint64_t junk = ~mask();
    if (plan_.intent == Intent::kChaos) {
      std::bernoulli_distribution b(plan_.density);
      uint64_t* v[] = {&in.warp_valid, &in.warp_paused, &in.head_ready, &in.head_is_mem, &in.head_is_alu, &in.issued};
      for (uint64_t* x : v) {
        *x = 0;
        for (int i = 0; i < 64; ++i)
          if (b(rng_)) *x |= 1ull << i;
      }
      in.warp_paused &= rng_();  // fewer paused warps
      return;
    }
    const Counts c = sample_counts();
    const bool da = in.xalu_def == XaluDef::kAllReady;
    const bool dm = in.xmem_def == XmemDef::kReadyMinusIssued;
    in.lsu_can_accept = dm ? coin() : (c.xm > 0 ? false : coin());
    std::array<int, 64> perm;
    for (int i = 0; i < W_; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.begin() + W_, rng_);
    // Bits above WARPS: junk the model must ignore (the RTL port is WARPS wide).
    uint64_t valid = bits64() & junk, paused = bits64() & junk, ready = bits64() & junk;
    uint64_t mem = bits64() & junk, alu = bits64() & junk, issued = bits64() & junk;
    int k = 0;
    auto take = [&]() { return 1ull << perm[k++]; };
    for (int i = 0; i < c.xa; ++i) {
      const uint64_t b = take();
      valid |= b, ready |= b, alu |= b;
      if (da && coin()) issued |= b;
    }
    for (int i = 0; i < c.xm; ++i) {
      const uint64_t b = take();
      valid |= b, ready |= b, mem |= b;
      if (!dm && coin()) issued |= b;
    }
    for (int i = 0; i < c.wt; ++i) {
      const uint64_t b = take();
      valid |= b;
      if (coin()) alu |= b;
      else if (coin()) mem |= b;
      if (coin(0.1)) issued |= b;
    }
    for (int i = 0, o = c.a - c.wt - c.xa - c.xm; i < o; ++i) {
      const uint64_t b = take();
      valid |= b, ready |= b;
      std::array<int, 4> types{};
      int n = 0;
      types[n++] = 0;                                // ready, neither ALU nor memory (barrier, branch)
      if (!da) types[n++] = 1;                       // issued ALU
      if (dm || in.lsu_can_accept) types[n++] = 2;   // issued memory
      if (!dm && in.lsu_can_accept) types[n++] = 3;  // ready memory, LSU accepts
      switch (types[uni(0, n - 1)]) {
        case 0:
          if (coin()) issued |= b;
          break;
        case 1: alu |= b, issued |= b; break;
        case 2: mem |= b, issued |= b; break;
        case 3: mem |= b; break;
      }
    }
    while (k < W_) {  // inactive: invalid, or paused, with random flags
      const uint64_t b = take();
      if (coin()) valid |= b, paused |= b;
      else if (coin()) paused |= b;
      if (coin()) ready |= b;
      if (coin()) alu |= b;
      if (coin()) mem |= b;
      if (coin()) issued |= b;
    }
    in.warp_valid = valid, in.warp_paused = paused, in.head_ready = ready;
    in.head_is_mem = mem, in.head_is_alu = alu, in.issued = issued;
  }

  EqSmParams p_;
  std::mt19937_64 rng_;
  int W_;
  uint32_t cycle_mask_, sample_mask_;
  std::deque<EpochPlan> queue_;
  size_t preamble_size_ = 0;
  size_t epochs_started_ = 0;
  EpochPlan plan_;
  int ks_cycle_ = -1;
  uint8_t kernel_max_ = 0;
  bool started_ = false;
  bool next_started_ = false;  // the next epoch's plan started on the epoch strobe
  int regime_ = 0, regime_left_ = 0;
};

// ---- coverage ---------------------------------------------------------------

const char* mode_name(ThresholdMode m) { return m == ThresholdMode::kExactSums ? "exact" : "truncated"; }

void declare_bins(Coverage& cov) {
  for (int b = 0; b <= 6; ++b)
    for (auto m : {ThresholdMode::kExactSums, ThresholdMode::kTruncatedAverages})
      cov.declare(std::string("branch.") + branch_name(EqBranch(b)) + "." + mode_name(m));
  for (const char* bin : {"threshold_mode_matters.exact",
                          "threshold_mode_matters.truncated",
                          "xalu_def_matters.ready_minus_issued",
                          "xalu_def_matters.all_ready",
                          "xmem_def_matters.lsu_blocked",
                          "xmem_def_matters.ready_minus_issued",
                          "vote.none",
                          "vote.comp",
                          "vote.mem",
                          "enable_low_epoch",
                          "hyst.enable_low_clears",
                          "hyst.run_1",
                          "hyst.run_2",
                          "hyst.commit_up",
                          "hyst.commit_down",
                          "hyst.flip_restart",
                          "hyst.no_change_clears",
                          "hyst.bound_at_1",
                          "hyst.bound_at_max",
                          "hyst.down_above_max",
                          "kernel_start",
                          "kernel_start.on_epoch_strobe",
                          "kernel_start.clears_run",
                          "kernel_start.overrides_commit",
                          "reset.mid_run"})
    cov.declare(bin);
}

// ---- lock-step run ------------------------------------------------------------

template <class Top>
void drive(Top& t, const EqSmIn& in, unsigned warps) {
  EqSmPorts::drive(t, in, EqSmParams{uint8_t(warps)});
}

template <class Top>
void compare(Compare& c, const EqSmOut& e, Top& t) {
  c.check("epoch_done_o", e.epoch_done, t.epoch_done_o);
  c.check("blk_req_o", uint8_t(e.blk_req) & 3u, t.blk_req_o);
  c.check("vote_o", uint8_t(e.vote), t.vote_o);
  c.check("branch_o", uint8_t(e.branch), t.branch_o);
  c.check("sum_active_o", e.sums.active, t.sum_active_o);
  c.check("sum_waiting_o", e.sums.waiting, t.sum_waiting_o);
  c.check("sum_xalu_o", e.sums.xalu, t.sum_xalu_o);
  c.check("sum_xmem_o", e.sums.xmem, t.sum_xmem_o);
  c.check("num_blocks_o", e.num_blocks, t.num_blocks_o);
}

template <class Top>
void run_lockstep(const EqSmParams& p, const std::string& name) {
  const uint64_t cycles = run_cycles();
  const uint64_t seed = run_seed();
  Harness<Top> h(name, std::getenv("GPUPM_TB_VCD"));
  EqSmBlock gold(p);
  EqStimulus stim(p, seed);
  Coverage cov;
  declare_bins(cov);
  std::mt19937_64 rng(seed ^ 0x5eedull);
  const uint16_t cycle_mask = uint16_t((1u << (p.sample_period_log2 + p.epoch_samples_log2)) - 1);
  const uint16_t sample_mask = uint16_t((1u << p.sample_period_log2) - 1);
  // One reset late in the run (after the preamble), and rare random ones.
  const uint64_t late_reset = cycles - 1 - cycles / 20;
  bool shadow_up = false;  // direction of the current run, for the coverage bins only
  uint64_t epochs = 0;

  // t: the cycle whose inputs were applied; counter: the cycle counter in it.
  auto check = [&](uint64_t t, const char* when, const EqSmIn* in, int counter) {
    Compare c;
    compare(c, gold.out(), h.top());
    if (!c.ok()) {
      ADD_FAILURE() << name << ": first mismatch in the outputs " << when << " cycle " << t << " (cycle counter "
                    << counter << "), " << c.first() << " (" << c.mismatches() << " signal(s) differ)\n"
                    << (in ? describe(*in) : std::string("after reset"))
                    << (h.vcd_path().empty() ? "" : "\nVCD: " + h.vcd_path());
      return false;
    }
    return true;
  };

  h.reset();
  if (!check(0, "at reset, before", nullptr, 0)) return;
  for (uint64_t t = 0; t < cycles; ++t) {
    // (Random resets would break the preamble's directed sequences.)
    if (t == late_reset || (!stim.in_preamble() && std::bernoulli_distribution(1e-6)(rng))) {
      h.reset();
      gold.reset();
      stim.restart();
      shadow_up = false;
      cov.hit("reset.mid_run");
      if (!check(t, "at a mid-run reset, before", nullptr, 0)) return;
    }
    const uint16_t counter = gold.cycle();
    const EqSmIn in = stim.next(counter);
    drive(h.top(), in, p.warps);
    const bool sample = ((counter + 1u) & sample_mask) == sample_mask;
    const bool epoch = counter == cycle_mask;
    const uint8_t count_before = gold.hysteresis_count();
    const uint8_t nb_before = gold.out().num_blocks;

    if (sample) {  // do the counter definitions disagree on this sample?
      EqSmIn alt = in;
      const EqSums s = sample_warp_states(in, p.warps);
      alt.xalu_def = XaluDef(1 - int(in.xalu_def));
      cov.hit_if(sample_warp_states(alt, p.warps).xalu != s.xalu, in.xalu_def == XaluDef::kAllReady
                                                                      ? "xalu_def_matters.all_ready"
                                                                      : "xalu_def_matters.ready_minus_issued");
      alt = in;
      alt.xmem_def = XmemDef(1 - int(in.xmem_def));
      cov.hit_if(sample_warp_states(alt, p.warps).xmem != s.xmem, in.xmem_def == XmemDef::kReadyMinusIssued
                                                                      ? "xmem_def_matters.ready_minus_issued"
                                                                      : "xmem_def_matters.lsu_blocked");
    }

    gold.step(in);
    h.tick();
    if (!check(t, "after the edge ending", &in, counter)) return;

    if (in.kernel_start) {
      cov.hit("kernel_start");
      cov.hit_if(epoch, "kernel_start.on_epoch_strobe");
      cov.hit_if(count_before != 0, "kernel_start.clears_run");
    }
    if (!epoch) continue;
    ++epochs;
    const EqSmOut& o = gold.out();
    const EqDecision d = decide(o.sums, in.w_cta, in.threshold_mode, p.epoch_samples_log2);
    const ThresholdMode other = ThresholdMode(1 - int(in.threshold_mode));
    cov.hit(std::string("branch.") + branch_name(o.branch) + "." + mode_name(in.threshold_mode));
    cov.hit_if(decide(o.sums, in.w_cta, other, p.epoch_samples_log2).branch != d.branch,
               std::string("threshold_mode_matters.") + mode_name(in.threshold_mode));
    cov.hit(o.vote == VfVote::kNone ? "vote.none" : o.vote == VfVote::kComp ? "vote.comp" : "vote.mem");
    if (!in.enable) {
      cov.hit("enable_low_epoch");
      cov.hit_if(count_before != 0, "hyst.enable_low_clears");
      continue;
    }
    const int max_blocks = in.max_blocks & 0xf;
    const int target = nb_before + d.block_delta;
    const bool in_range = d.block_delta != 0 && target >= 1 && target <= max_blocks;
    if (d.block_delta == 0) {
      cov.hit_if(count_before != 0, "hyst.no_change_clears");
    } else if (!in_range) {
      cov.hit_if(d.block_delta > 0, "hyst.bound_at_max");
      cov.hit_if(d.block_delta < 0 && target < 1, "hyst.bound_at_1");
      cov.hit_if(d.block_delta < 0 && target > max_blocks, "hyst.down_above_max");
    } else {
      const bool up = d.block_delta > 0;
      const int run = (count_before != 0 && up == shadow_up) ? count_before + 1 : 1;
      cov.hit_if(count_before != 0 && up != shadow_up, "hyst.flip_restart");
      cov.hit_if(run == 1, "hyst.run_1");
      cov.hit_if(run == 2, "hyst.run_2");
      if (run == EqSmBlock::kHysteresisEpochs) {
        if (in.kernel_start) cov.hit("kernel_start.overrides_commit");
        else cov.hit(up ? "hyst.commit_up" : "hyst.commit_down");
      }
      shadow_up = up;
    }
  }
  std::printf("[ coverage ] %s: %llu cycles, %llu epochs, seed %llu, %zu bins\n%s", name.c_str(),
              (unsigned long long)cycles, (unsigned long long)epochs, (unsigned long long)seed, cov.size(),
              cov.report().c_str());
  const auto missing = cov.missing();
  if (coverage_required()) {
    EXPECT_TRUE(missing.empty()) << name << ": " << missing.size()
                                 << " coverage bin(s) never hit, first: " << (missing.empty() ? "" : missing.front());
  }
}

TEST(EqSmBlockRtl, LockstepDefault48Warps128x32) {
  run_lockstep<Veq_sm_block>(EqSmParams{48, 7, 5}, "eq_sm_block_w48s7e5");
}

TEST(EqSmBlockRtl, Lockstep64Warps4x8) {
  run_lockstep<Veq_sm_block_w64s2e3>(EqSmParams{64, 2, 3}, "eq_sm_block_w64s2e3");
}

// The Pascal config's block (configs/gpu/pascal_60sm.json: 64 warps per SM, the default sampling).
TEST(EqSmBlockRtl, Lockstep64Warps128x32Pascal) {
  run_lockstep<Veq_sm_block_w64>(EqSmParams{64, 7, 5}, "eq_sm_block_w64s7e5");
}

TEST(EqSmBlockRtl, Lockstep13WarpsEveryCycle2Samples) {
  run_lockstep<Veq_sm_block_w13s0e1>(EqSmParams{13, 0, 1}, "eq_sm_block_w13s0e1");
}

}  // namespace
}  // namespace gpupm::tb
