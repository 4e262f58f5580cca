// EqSmBlock: sampling (both counter definitions), exact sums at the exact
// cycle, the threshold CSR, hysteresis and its bounds, kernel_start, enable,
// advance() against step(), invariants and parameters.
#include "gpupm/controllers/eq_sm_block.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>

namespace gpupm {
namespace {

constexpr int kSamples = 32;
constexpr int kEpoch = 4096;
constexpr int kSamplePeriod = 128;

uint64_t bits(int from, int count) { return count ? ((~0ull >> (64 - count)) << from) : 0; }

class EqSmTest : public ::testing::Test {
 protected:
  EqSmBlock block;
  EqSmIn base = [] {
    EqSmIn in;
    in.w_cta = 4;
    in.max_blocks = 6;
    return in;
  }();

  // A sample whose warps 0.. are, in order: `waiting` waiting, `xalu` excess
  // ALU, `xmem` excess memory (LSU blocked) and `others` issued ALU warps; then
  // decoys that must not count: a paused warp, an invalid ready one, and one
  // above the 48 used bits.
  EqSmIn states(int waiting, int xalu, int xmem, int others = 0) const {
    EqSmIn in = base;
    int at = 0;
    auto take = [&](int n) {
      const uint64_t b = bits(at, n);
      at += n;
      return b;
    };
    const uint64_t wait = take(waiting), alu = take(xalu), mem = take(xmem), issued = take(others);
    const uint64_t paused = take(1), invalid = take(1), unused = bits(50, 1);
    in.warp_valid = wait | alu | mem | issued | paused | unused;
    in.warp_paused = paused;
    in.head_ready = alu | mem | issued | invalid;
    in.head_is_alu = alu | issued | invalid;
    in.head_is_mem = mem | paused;
    in.issued = issued;
    in.lsu_can_accept = false;
    return in;
  }

  // What the block must ignore off the sample strobe.
  EqSmIn noise() const {
    EqSmIn in = base;
    in.warp_valid = in.head_ready = in.head_is_alu = in.head_is_mem = ~0ull;
    in.enable = !base.enable;
    in.w_cta = 0;
    in.threshold_mode = ThresholdMode::kTruncatedAverages;
    return in;
  }

  // The rest of the current epoch, started before its first sample: sample k
  // uses sample(k) in its strobe cycle (126, 254, ..., 4094) without its
  // kernel_start, the epoch strobe (4095) sees sample(31) with it, other
  // cycles see noise(). Checks that epoch_done rises only at the edge of
  // cycle 4095, and returns that edge's outputs.
  EqSmOut run_epoch(const std::function<EqSmIn(int)>& sample) {
    EXPECT_LE(block.cycle(), kSamplePeriod - 2);
    const EqSmIn idle = noise();
    int k = 0;
    for (int t = block.cycle(); t < kEpoch - 1; ++t) {
      const bool strobe = t % kSamplePeriod == kSamplePeriod - 2;
      EqSmIn in = idle;
      if (strobe) {
        in = sample(k++);
        in.kernel_start = false;
      }
      EXPECT_FALSE(block.step(in).epoch_done) << t;
    }
    EXPECT_EQ(k, kSamples);
    return block.step(sample(kSamples - 1));
  }
  EqSmOut run_epoch(const EqSmIn& every_sample) {
    return run_epoch([&](int) { return every_sample; });
  }

  // A kernel_start in the current cycle (the first of an epoch in these tests).
  void start_kernel(uint8_t max_blocks) {
    base.max_blocks = max_blocks;
    EqSmIn in = noise();
    in.kernel_start = true;
    block.step(in);
  }

  // Epoch inputs wanting, with W_cta 4 and exact sums: '-' a block less
  // (S_mem 160 > 128), '+' a block more (unsaturated, compute-inclined), '0' no change.
  EqSmIn wanting(char c) const {
    if (c == '-') return states(0, 0, 5);
    if (c == '+') return states(10, 3, 0);
    return states(0, 0, 0, 10);
  }
  // Runs one epoch per character; returns the committed blk_req per epoch and
  // the num_blocks after each, e.g. "00-" and "665".
  std::pair<std::string, std::string> run_pattern(const std::string& pattern) {
    std::string req, blocks;
    for (char c : pattern) {
      const EqSmOut o = run_epoch(wanting(c));
      req += o.blk_req < 0 ? '-' : o.blk_req > 0 ? '+' : '0';
      blocks += char('0' + o.num_blocks);
    }
    return {req, blocks};
  }

  // A sample strobe and the cycle after it (the epoch strobe after the last sample).
  const EqSmOut& strobe_pair(const EqSmIn& in) {
    block.step(in);
    return block.step(in);
  }

  static ::testing::AssertionResult same_state(const EqSmBlock& a, const EqSmBlock& b) {
    if (a.out() == b.out() && a.cycle() == b.cycle() && a.accumulators() == b.accumulators() &&
        a.sample_register() == b.sample_register() && a.hysteresis_count() == b.hysteresis_count())
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "registers differ at cycle " << a.cycle() << "/" << b.cycle();
  }
};

TEST_F(EqSmTest, ResetValues) {
  EXPECT_TRUE(block.out() == EqSmOut{});
  EXPECT_EQ(block.cycle(), 0);
  EXPECT_TRUE(block.accumulators() == EqSums{});
  EXPECT_EQ(block.max_sum(), 1536);
}

TEST_F(EqSmTest, SumsAreExactAtTheEpochCycle) {
  auto sample = [&](int k) { return states(k % 5, k % 3, (k * 7) % 4, 1); };
  EqSums want;
  for (int k = 0; k < kSamples; ++k) {
    const uint16_t w = k % 5, a = k % 3, m = (k * 7) % 4;
    want.active += w + a + m + 1;
    want.waiting += w;
    want.xalu += a;
    want.xmem += m;
  }
  const EqSmOut o = run_epoch(sample);
  EXPECT_TRUE(o.epoch_done);
  EXPECT_EQ(o.sums.active, want.active);
  EXPECT_EQ(o.sums.waiting, want.waiting);
  EXPECT_EQ(o.sums.xalu, want.xalu);
  EXPECT_EQ(o.sums.xmem, want.xmem);
  EXPECT_TRUE(block.accumulators() == EqSums{});  // cleared for the next epoch

  // The next epoch sums only its own samples; the first is taken in cycle 126
  // (into the sample register) and accumulated at the edge ending cycle 127.
  const EqSmIn constant = states(2, 1, 3, 4);
  for (int t = 0; t < kSamplePeriod - 2; ++t) block.step(constant);
  EXPECT_TRUE(block.accumulators() == EqSums{});
  EXPECT_TRUE(block.sample_register() == EqSums{});
  block.step(constant);
  EXPECT_TRUE(block.accumulators() == EqSums{});
  EXPECT_TRUE((block.sample_register() == EqSums{10, 2, 1, 3}));
  block.step(constant);
  EXPECT_TRUE((block.accumulators() == EqSums{10, 2, 1, 3}));
  EXPECT_TRUE(block.sample_register() == EqSums{});
  block.advance(block.cycles_to_next_sample());
  for (int k = 1; k < kSamples; ++k) {
    const EqSmOut& next = strobe_pair(constant);
    EXPECT_EQ(next.epoch_done, k == kSamples - 1);
    if (k < kSamples - 1) block.advance(kSamplePeriod - 2);
  }
  EXPECT_TRUE((block.out().sums == EqSums{320, 64, 32, 96}));
}

TEST_F(EqSmTest, EpochOutputsPulseForOneCycleAndHold) {
  start_kernel(6);
  run_pattern("--");
  const EqSmOut o = run_epoch(wanting('-'));
  EXPECT_EQ(o.blk_req, -1);
  const EqSmOut after = block.step(noise());
  EXPECT_FALSE(after.epoch_done);
  EXPECT_EQ(after.blk_req, 0);
  EXPECT_EQ(after.vote, VfVote::kMem);
  EXPECT_EQ(after.branch, EqBranch::kMemDefinite);
  EXPECT_TRUE(after.sums == o.sums);
  EXPECT_EQ(after.num_blocks, 5);
}

TEST_F(EqSmTest, PausedInvalidAndUnusedWarpsDoNotCount) {
  EXPECT_TRUE(sample_warp_states(states(0, 0, 0), 48) == EqSums{});
  EXPECT_TRUE((sample_warp_states(states(0, 0, 0), 64) == EqSums{1, 1, 0, 0}));  // bit 50: waiting
  const EqSmOut o = run_epoch(states(48 - 2, 0, 0));                             // every warp waiting, decoys at 46, 47
  EXPECT_TRUE((o.sums == EqSums{1472, 1472, 0, 0}));
}

TEST_F(EqSmTest, FullOccupancyReachesTheElevenBitMaximum) {
  EqSmIn all = base;
  all.warp_valid = ~0ull;
  EXPECT_TRUE((run_epoch(all).sums == EqSums{1536, 1536, 0, 0}));
  EXPECT_TRUE(block.invariants_ok());
}

TEST_F(EqSmTest, XaluDefinitions) {
  EqSmIn in = base;
  in.warp_valid = in.head_ready = in.head_is_alu = bits(0, 3);
  in.issued = bits(0, 1);
  EXPECT_EQ(sample_warp_states(in, 48).xalu, 2);  // ready minus issued (III-A)
  in.xalu_def = XaluDef::kAllReady;
  EXPECT_EQ(sample_warp_states(in, 48).xalu, 3);  // every ready ALU head (IV-A)
}

TEST_F(EqSmTest, XmemDefinitions) {
  EqSmIn in = base;
  in.warp_valid = in.head_ready = in.head_is_mem = bits(0, 4);
  in.issued = bits(0, 1);
  for (bool lsu_free : {true, false}) {
    in.lsu_can_accept = lsu_free;
    in.xmem_def = XmemDef::kReadyAndLsuBlocked;
    EXPECT_EQ(sample_warp_states(in, 48).xmem, lsu_free ? 0 : 4) << lsu_free;
    in.xmem_def = XmemDef::kReadyMinusIssued;
    EXPECT_EQ(sample_warp_states(in, 48).xmem, 3) << lsu_free;
  }
}

TEST_F(EqSmTest, ThresholdCsrSelectsTheReading) {
  // S_mem = 31*2 + 3 = 65: "nMem > 2" holds exactly, but floor(65/32) = 2 does not.
  auto sample = [&](int k) { return states(0, 0, k == 0 ? 3 : 2, 10); };
  EqSmOut exact = run_epoch(sample);
  EXPECT_EQ(exact.sums.xmem, 65);
  EXPECT_EQ(exact.branch, EqBranch::kMemLikely);
  EXPECT_EQ(exact.vote, VfVote::kMem);
  base.threshold_mode = ThresholdMode::kTruncatedAverages;
  EqSmOut truncated = run_epoch(sample);
  EXPECT_EQ(truncated.branch, EqBranch::kDegenerateNone);
  EXPECT_EQ(truncated.vote, VfVote::kNone);
}

TEST_F(EqSmTest, ThreeConsecutiveDecisionsChangeOneBlock) {
  start_kernel(6);
  EXPECT_EQ(run_pattern("------"), std::make_pair(std::string("00-00-"), std::string("665554")));
}

TEST_F(EqSmTest, FlipOfDirectionRestartsTheCount) {
  start_kernel(8);
  run_pattern("---");
  EXPECT_EQ(run_pattern("++--+++"), std::make_pair(std::string("000000+"), std::string("7777778")));
}

TEST_F(EqSmTest, NoChangeEpochResetsTheCount) {
  start_kernel(6);
  EXPECT_EQ(run_pattern("--0---").first, "00000-");
}

TEST_F(EqSmTest, NumBlocksStaysWithinOneAndMaxBlocks) {
  start_kernel(2);
  EXPECT_EQ(run_pattern("+++"), std::make_pair(std::string("000"), std::string("222")));
  EXPECT_EQ(run_pattern("---------"), std::make_pair(std::string("00-000000"), std::string("221111111")));
  EXPECT_EQ(block.hysteresis_count(), 0);
}

TEST_F(EqSmTest, KernelStartReloadsNumBlocksAndClearsHysteresisOnly) {
  start_kernel(6);
  run_pattern("---");
  ASSERT_EQ(block.out().num_blocks, 5);
  run_pattern("--");
  EXPECT_EQ(block.hysteresis_count(), 2);
  // Mid-epoch, one sample in the sample register: cycle counter and sums go on.
  block.advance(kSamplePeriod - 2);
  block.step(wanting('-'));
  EqSmIn start = noise();
  start.kernel_start = true;
  const uint16_t cycle = block.cycle();
  EXPECT_EQ(block.step(start).num_blocks, 6);
  EXPECT_EQ(block.cycle(), cycle + 1);
  EXPECT_EQ(block.hysteresis_count(), 0);
  EXPECT_EQ(block.accumulators().xmem, 5);
  block.advance(block.cycles_to_next_sample());
  for (int k = 1; k < kSamples; ++k) {
    strobe_pair(wanting('-'));
    if (k < kSamples - 1) block.advance(kSamplePeriod - 2);
  }
  EXPECT_TRUE(block.out().epoch_done);  // at the aligned cycle
  EXPECT_EQ(block.out().blk_req, 0);    // a fresh count: 1 of 3
  EXPECT_EQ(block.out().sums.xmem, 160);
  EXPECT_EQ(run_pattern("--").first, "0-");
}

TEST_F(EqSmTest, KernelStartOnTheEpochStrobeWinsOverTheChange) {
  start_kernel(6);
  run_pattern("--");
  const EqSmOut o = run_epoch([&](int k) {
    EqSmIn in = wanting('-');
    in.kernel_start = k == kSamples - 1;
    return in;
  });
  EXPECT_TRUE(o.epoch_done);
  EXPECT_EQ(o.blk_req, 0);
  EXPECT_EQ(o.num_blocks, 6);
  EXPECT_EQ(o.vote, VfVote::kMem);
  EXPECT_EQ(run_pattern("---").first, "00-");
}

TEST_F(EqSmTest, DisabledBlockCountsButDoesNotAct) {
  start_kernel(6);
  run_pattern("--");
  base.enable = false;
  for (int e = 0; e < 3; ++e) {
    const EqSmOut o = run_epoch(wanting('-'));
    EXPECT_TRUE(o.epoch_done);
    EXPECT_EQ(o.sums.xmem, 160);
    EXPECT_EQ(o.branch, EqBranch::kMemDefinite);
    EXPECT_EQ(o.vote, VfVote::kNone);
    EXPECT_EQ(o.blk_req, 0);
    EXPECT_EQ(o.num_blocks, 6);
  }
  base.enable = true;
  EXPECT_EQ(run_pattern("---").first, "00-");
}

TEST_F(EqSmTest, AdvanceEqualsSteps) {
  EqSmBlock skipping;
  std::mt19937 rng(7);
  auto random_in = [&] {
    EqSmIn in = base;
    in.warp_valid = rng() | uint64_t(rng()) << 32;
    in.warp_paused = rng() & rng();
    in.head_ready = rng() | uint64_t(rng()) << 32;
    in.head_is_mem = rng() | uint64_t(rng()) << 32;
    in.head_is_alu = ~in.head_is_mem;
    in.issued = rng() & rng();
    in.lsu_can_accept = rng() & 1;
    in.max_blocks = 1 + rng() % 8;
    in.w_cta = rng() % 6;
    in.enable = rng() % 4;
    in.xalu_def = XaluDef(rng() & 1);
    in.xmem_def = XmemDef(rng() & 1);
    in.threshold_mode = ThresholdMode(rng() & 1);
    return in;
  };
  char want = '-';       // the epoch's samples: wanting(want), or random for 'r'; it
  uint32_t pending = 0;  // persists so that hysteresis commits; pending: cycles to advance
  for (int t = 0; t < 40 * kEpoch; ++t) {
    if (t % kEpoch == 0 && rng() % 3 == 0) want = "-+0r"[rng() % 4];
    const bool strobe = t % kSamplePeriod == kSamplePeriod - 2;
    const bool epoch = t % kEpoch == kEpoch - 1;  // reads inputs: never skipped
    EqSmIn in = strobe && want != 'r' ? wanting(want) : random_in();
    in.kernel_start = rng() % 20000 == 0;
    const bool after_epoch = t % kEpoch == 1;  // the pulses must be gone
    if (strobe || epoch || in.kernel_start || after_epoch || rng() % 50 == 0) {
      skipping.advance(pending);  // both now at the start of cycle t
      pending = 0;
      ASSERT_TRUE(same_state(skipping, block)) << t;
      skipping.step(in);
    } else {
      ++pending;
    }
    block.step(in);
  }
  skipping.advance(pending);
  EXPECT_TRUE(same_state(skipping, block));
}

TEST_F(EqSmTest, AdvanceRefusesToSkipAStrobe) {
  EXPECT_EQ(block.cycles_to_next_sample(), 126u);
  EXPECT_THROW(block.advance(127), std::invalid_argument);
  block.advance(126);
  EXPECT_EQ(block.cycle(), 126);
  EXPECT_EQ(block.cycles_to_next_sample(), 0u);
  EXPECT_THROW(block.advance(1), std::invalid_argument);
  block.advance(0);
  EXPECT_EQ(block.cycle(), 126);
  block.step(base);
  EXPECT_EQ(block.cycles_to_next_sample(), 127u);
  // The epoch strobe reads inputs: it cannot be skipped either.
  for (int k = 1; k < kSamples; ++k) {
    block.advance(block.cycles_to_next_sample());
    block.step(base);
  }
  EXPECT_EQ(block.cycle(), kEpoch - 1);
  EXPECT_THROW(block.advance(1), std::invalid_argument);
  EXPECT_TRUE(block.step(base).epoch_done);
}

TEST_F(EqSmTest, AdvanceEndsThePulses) {
  start_kernel(6);
  run_pattern("--");
  ASSERT_EQ(run_epoch(wanting('-')).blk_req, -1);
  block.advance(1);
  EXPECT_FALSE(block.out().epoch_done);
  EXPECT_EQ(block.out().blk_req, 0);
  EXPECT_EQ(block.out().num_blocks, 5);
}

TEST_F(EqSmTest, InvariantFlagsAHeadThatIsBothAluAndMem) {
  run_epoch(states(3, 2, 4, 1));
  EXPECT_TRUE(block.invariants_ok());
  EqSmIn bad = states(0, 1, 0);
  bad.head_is_mem |= bad.head_is_alu;  // the X_alu warp is also an LSU-blocked X_mem warp
  run_epoch(bad);
  EXPECT_FALSE(block.invariants_ok());
}

TEST_F(EqSmTest, ParametersSizeTheCounters) {
  block = EqSmBlock(EqSmParams{64, 2, 2});  // 4-cycle samples, 4 per epoch
  EXPECT_EQ(block.max_sum(), 256);
  EqSmIn all = base;
  all.warp_valid = ~0ull;
  for (int t = 0; t < 15; ++t) EXPECT_FALSE(block.step(all).epoch_done);
  EXPECT_TRUE(block.step(all).epoch_done);
  EXPECT_TRUE((block.out().sums == EqSums{256, 256, 0, 0}));
  EXPECT_EQ(block.cycle(), 0);
  for (EqSmParams bad : {EqSmParams{0, 7, 5}, EqSmParams{65, 7, 5}, EqSmParams{48, 12, 5}, EqSmParams{64, 4, 10}})
    EXPECT_THROW(EqSmBlock{bad}, std::invalid_argument);
}

}  // namespace
}  // namespace gpupm
