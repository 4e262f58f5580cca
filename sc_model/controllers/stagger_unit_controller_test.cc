// StaggerController: cpp / rtl / lockstep agree (step() on strobes, advance()
// in between), advance() refuses to skip a strobe, an injected RTL fault is
// reported, unknown parameter sets are refused.
#include "gpupm/controllers/stagger_unit_controller.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

namespace gpupm {
namespace {

void expect_same(const StaggerOut& a, const StaggerOut& b, int t) {
  ASSERT_EQ(a.hold, b.hold) << t;
  ASSERT_EQ(a.trigger, b.trigger) << t;
  ASSERT_EQ(a.pending, b.pending) << t;
  ASSERT_EQ(a.last_active, b.last_active) << t;
  ASSERT_EQ(a.triggers, b.triggers) << t;
  ASSERT_EQ(a.report_count, b.report_count) << t;
  ASSERT_EQ(a.hold_count, b.hold_count) << t;
  ASSERT_EQ(a.age, b.age) << t;
}

TEST(StaggerController, AllThreeAgree) {
  if (!kRtlBuilt) GTEST_SKIP() << "built without Verilator";
  for (const StaggerParams p : {StaggerParams{15, 10, 3}, StaggerParams{32, 16, 3}, StaggerParams{4, 1, 1}}) {
    auto cpp = make_stagger_controller(ControllerImpl::kCpp, p);
    auto rtl = make_stagger_controller(ControllerImpl::kRtl, p);
    auto ls = make_stagger_controller(ControllerImpl::kLockstep, p);
    std::mt19937 rng(p.n_sms);
    for (int t = 0; t < 4000; ++t) {
      StaggerIn in;
      in.sm_active = rng() % 3 ? uint32_t(rng()) : 0;
      in.k_min = uint8_t(rng() % (p.n_sms + 1));
      in.step_cycles = uint8_t(rng() % 40);
      in.policy = StaggerPolicy(rng() % 4);
      in.groups = uint8_t(rng() % 8);
      in.enable = rng() % 8 != 0;
      const StaggerOut c = cpp->step(in);
      expect_same(c, rtl->step(in), t);
      expect_same(c, ls->step(in), t);
      const uint32_t n = cpp->cycles_to_strobe();
      ASSERT_EQ(rtl->cycles_to_strobe(), n);
      ASSERT_EQ(ls->cycles_to_strobe(), n);
      cpp->advance(n), rtl->advance(n), ls->advance(n);
      expect_same(cpp->out(), rtl->out(), t);
      expect_same(cpp->out(), ls->out(), t);
    }
  }
}

TEST(StaggerController, AdvanceRefusesToSkipAStrobe) {
  if (!kRtlBuilt) GTEST_SKIP() << "built without Verilator";
  for (ControllerImpl i : {ControllerImpl::kCpp, ControllerImpl::kRtl, ControllerImpl::kLockstep}) {
    auto u = make_stagger_controller(i, StaggerParams{});
    EXPECT_THROW(u->advance(10), std::logic_error) << controller_impl_name(i);
    EXPECT_NO_THROW(u->advance(9));
    EXPECT_THROW(u->advance(1), std::logic_error);
  }
}

TEST(StaggerController, InjectedFaultIsReported) {
  if (!kRtlBuilt) GTEST_SKIP() << "built without Verilator";
  setenv("GPUPM_LOCKSTEP_FAULT", "stagger_unit:0:25:hold_count_o[7]:13", 1);
  auto ls = make_stagger_controller(ControllerImpl::kLockstep, StaggerParams{});
  unsetenv("GPUPM_LOCKSTEP_FAULT");
  try {
    StaggerIn in;
    in.sm_active = 0x7fff;
    for (int t = 0; t < 40; ++t) ls->step(in);
    FAIL() << "no mismatch";
  } catch (const LockstepMismatch& m) {
    EXPECT_EQ(m.block, "stagger_unit");
    EXPECT_EQ(m.sm, -1);
    EXPECT_EQ(m.cycle, 25u);
    EXPECT_EQ(m.signal, "hold_count_o[7]");
    EXPECT_EQ(m.expected ^ m.actual, 1u << 13);
  }
}

TEST(StaggerController, UnknownParametersAreRefused) {
  std::string why;
  EXPECT_FALSE(stagger_rtl_available(StaggerParams{16, 10, 3}, &why));
  EXPECT_NE(why.find("N_SMS=16"), std::string::npos) << why;
  EXPECT_THROW(make_stagger_controller(ControllerImpl::kLockstep, StaggerParams{16, 10, 3}), std::invalid_argument);
  EXPECT_NO_THROW(make_stagger_controller(ControllerImpl::kCpp, StaggerParams{16, 10, 3}));
}

}  // namespace
}  // namespace gpupm
