// DroopPredController: cpp / rtl / lockstep agree on random traffic (eval() on
// prefixes, step(), advance()), an injected RTL fault is reported, unknown slot
// counts are refused.
#include "gpupm/controllers/droop_predictor_controller.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

namespace gpupm {
namespace {

DroopPredIn random_in(std::mt19937& rng) {
  DroopPredIn in;
  in.cand_valid = uint8_t(rng() & 0xf);
  for (auto& c : in.cand_class) c = DispatchClass(rng() & 3);
  for (auto& w : in.weight) w = uint8_t(rng() & 0x3f);
  in.t2 = uint8_t(rng() % 60), in.t3 = uint8_t(rng() % 80), in.t4 = uint8_t(rng() % 100);
  in.max_block = uint8_t(rng() & 7);
  in.enable = rng() % 10 != 0;
  return in;
}

void expect_same(const DroopPredOut& a, const DroopPredOut& b, int t) {
  ASSERT_EQ(a.admit, b.admit) << t;
  ASSERT_EQ(a.predict, b.predict) << t;
  ASSERT_EQ(a.throttled, b.throttled) << t;
  ASSERT_EQ(a.h0, b.h0) << t;
  ASSERT_EQ(a.h1, b.h1) << t;
  ASSERT_EQ(a.h2, b.h2) << t;
  ASSERT_EQ(a.block_count, b.block_count) << t;
}

TEST(DroopPredController, AllThreeAgree) {
  if (!kRtlBuilt) GTEST_SKIP() << "built without Verilator";
  for (uint8_t slots : {1, 2, 4}) {
    const DroopPredParams p{slots};
    auto cpp = make_droop_pred_controller(ControllerImpl::kCpp, p, 0);
    auto rtl = make_droop_pred_controller(ControllerImpl::kRtl, p, 0);
    auto ls = make_droop_pred_controller(ControllerImpl::kLockstep, p, 0);
    std::mt19937 rng(slots);
    for (int t = 0; t < 5000; ++t) {
      const DroopPredIn in = random_in(rng);
      for (unsigned k = 1; k <= slots; ++k) {  // growing prefixes
        DroopPredIn part = in;
        part.cand_valid &= uint8_t((1u << k) - 1);
        const DroopPredOut c = cpp->eval(part);
        expect_same(c, rtl->eval(part), t);
        expect_same(c, ls->eval(part), t);
      }
      const DroopPredOut c = cpp->step(in);
      expect_same(c, rtl->step(in), t);
      expect_same(c, ls->step(in), t);
      if (rng() % 50 == 0) {
        const uint64_t n = rng() % 6;
        cpp->advance(n), rtl->advance(n), ls->advance(n);
      }
    }
  }
}

TEST(DroopPredController, InjectedFaultIsReported) {
  if (!kRtlBuilt) GTEST_SKIP() << "built without Verilator";
  setenv("GPUPM_LOCKSTEP_FAULT", "droop_predictor:3:40:h1_o:2", 1);
  auto ls = make_droop_pred_controller(ControllerImpl::kLockstep, DroopPredParams{2}, 3);
  unsetenv("GPUPM_LOCKSTEP_FAULT");
  std::mt19937 rng(1);
  try {
    for (int t = 0; t < 100; ++t) ls->step(random_in(rng));
    FAIL() << "no mismatch";
  } catch (const LockstepMismatch& m) {
    EXPECT_EQ(m.block, "droop_predictor");
    EXPECT_EQ(m.sm, 3);
    EXPECT_EQ(m.cycle, 40u);
    EXPECT_EQ(m.signal, "h1_o");
    EXPECT_EQ(m.expected ^ m.actual, 4u);
    EXPECT_NE(std::string(m.what()).find("inputs: cand_valid="), std::string::npos) << m.what();
  }
}

TEST(DroopPredController, UnknownSlotCountIsRefused) {
  std::string why;
  EXPECT_FALSE(droop_pred_rtl_available(DroopPredParams{3}, &why));
  EXPECT_NE(why.find("SLOTS=3"), std::string::npos) << why;
  EXPECT_THROW(make_droop_pred_controller(ControllerImpl::kRtl, DroopPredParams{3}, 0), std::invalid_argument);
  EXPECT_NO_THROW(make_droop_pred_controller(ControllerImpl::kCpp, DroopPredParams{3}, 0));
}

}  // namespace
}  // namespace gpupm
