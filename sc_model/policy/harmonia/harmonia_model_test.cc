// Harmonia's pieces without SystemC: the Table 3 predictors and binning, the
// Table 2 counters from a counter window, and Algorithm 1 (HarmoniaKernel)
// driven with sensitivities and performance numbers.
#include "gpupm/policy/harmonia/harmonia_model.h"
#include "gpupm/policy/harmonia/harmonia_policy.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

// ------------------------------------------------------------------ predictors

TEST(HarmoniaPredictor, Table3Arithmetic) {
  Table2Counters c;
  c.valu_utilization = 100;
  c.write_unit_stalled = 10;
  c.mem_unit_busy = 50;
  c.mem_unit_stalled = 20;
  c.ic_activity = 0.5;
  c.norm_vgpr = 0.25;
  c.norm_sgpr = 0.2;
  c.c_to_m = 40;
  HarmoniaSensitivity s = predict_sensitivity(c);
  // -0.42 + 0.3 + 0.11 + 0.5 - 0.08 + 0.5015 + 0.2895 - 0.1462
  EXPECT_NEAR(s.bw_raw, 1.0548, 1e-9);
  EXPECT_DOUBLE_EQ(s.bw, 1.0);  // clamped
  EXPECT_EQ(s.bw_bin, HBin::kHigh);
  // 0.06 + 0.28 + 0.113 + 0.0048
  EXPECT_NEAR(s.comp_raw, 0.4578, 1e-9);
  EXPECT_NEAR(s.comp, 0.4578, 1e-9);
  EXPECT_EQ(s.comp_bin, HBin::kMed);
  Table2Counters z;  // all zero: the intercepts
  HarmoniaSensitivity q = predict_sensitivity(z);
  EXPECT_DOUBLE_EQ(q.bw_raw, -0.42);
  EXPECT_DOUBLE_EQ(q.bw, 0.0);
  EXPECT_EQ(q.bw_bin, HBin::kLow);
  EXPECT_DOUBLE_EQ(q.comp, 0.06);
}

TEST(HarmoniaPredictor, BinEdges) {
  EXPECT_EQ(sensitivity_bin(0.0), HBin::kLow);
  EXPECT_EQ(sensitivity_bin(0.2999), HBin::kLow);
  EXPECT_EQ(sensitivity_bin(0.30), HBin::kMed);  // LOW < 30% <= MED <= 70% < HIGH
  EXPECT_EQ(sensitivity_bin(0.70), HBin::kMed);
  EXPECT_EQ(sensitivity_bin(0.7001), HBin::kHigh);
  EXPECT_EQ(sensitivity_bin(1.0), HBin::kHigh);
  EXPECT_EQ(sensitivity_bin(0.5, 0.6, 0.8), HBin::kLow);
  EXPECT_STREQ(bin_name(HBin::kMed), "MED");
}

TEST(HarmoniaCounters, Table2FromAWindow) {
  WindowStats w;
  w.valu_busy = 60;
  w.valu_utilization = 80;
  w.mem_unit_busy = 30;
  w.mem_unit_stalled = 10;
  w.write_unit_stalled = 5;
  w.mbu = 0.4;
  KernelLaunch k;
  k.vgprs = 64;
  k.sgprs = 51;
  Table2Counters t = table2_counters(w, k);
  EXPECT_DOUBLE_EQ(t.ic_activity, 0.4);
  EXPECT_DOUBLE_EQ(t.norm_vgpr, 0.25);
  EXPECT_DOUBLE_EQ(t.norm_sgpr, 0.5);
  EXPECT_DOUBLE_EQ(t.c_to_m, 100.0);  // 100 x (60 x 0.8) / 30 = 160, capped at 100
  w.mem_unit_busy = 96;
  EXPECT_DOUBLE_EQ(table2_counters(w, k).c_to_m, 50.0);  // 100 x 48 / 96
  w.mem_unit_busy = 0;
  EXPECT_DOUBLE_EQ(table2_counters(w, k).c_to_m, 100.0);  // no memory work
  // Device VALU busy: 4e6 busy cycles over 32 SMs x 4 slots x 1 ms x 1000 MHz = 3.125%.
  w.valu_busy_cycles = 4000000;
  w.schedulers = 4;
  w.seconds = 1e-3;
  EXPECT_DOUBLE_EQ(device_valu_busy(w, 32, 1000.0), 3.125);
}

// ------------------------------------------------------------------ Algorithm 1

// 8 CU counts (4..32), 8 CU clocks (300..1000 MHz), 7 memory clocks (475..1375 MHz).
HarmoniaSpace space() {
  HarmoniaSpace s;
  for (int n = 4; n <= 32; n += 4) s.values[kCuCount].push_back(n);
  for (int f = 300; f <= 1000; f += 100) s.values[kCuFreq].push_back(f);
  for (int m = 475; m <= 1375; m += 150) s.values[kMemFreq].push_back(m);
  return s;
}

HarmoniaSettings settings() {
  HarmoniaSettings s;
  s.cg[kCuCount] = {1, 3, 7};  // 8, 16, 32 CUs
  s.cg[kCuFreq] = {4, 6, 7};   // 700, 900, 1000 MHz
  s.cg[kMemFreq] = {0, 3, 6};  // 475, 925, 1375 MHz
  s.max_dither = 3;
  s.fg_tolerance = 0.02;
  s.warmup = 0;  // decide from the first invocation, as Algorithm 1 does
  return s;
}

HarmoniaSensitivity sens(double bw, double comp) {
  HarmoniaSensitivity s;
  s.bw = s.bw_raw = bw;
  s.comp = s.comp_raw = comp;
  s.bw_bin = sensitivity_bin(bw);
  s.comp_bin = sensitivity_bin(comp);
  return s;
}

HConfig cfg(int cu, int f, int m) { return HConfig{{cu, f, m}}; }

TEST(HarmoniaKernel, StartsAtTheTopAndCoarseGrainFollowsTheBinTable) {
  HarmoniaKernel k(settings(), space());
  EXPECT_EQ(k.config(), cfg(7, 7, 6));
  Json e = k.observe(sens(0.9, 0.1), 10.0);  // bandwidth HIGH, compute LOW
  EXPECT_EQ(e["event"], "cg");
  EXPECT_EQ(k.config(), cfg(1, 4, 6));  // 8 CUs, 700 MHz, 1375 MHz
  HarmoniaKernel c(settings(), space());
  c.observe(sens(0.1, 0.9), 10.0);  // compute-bound
  EXPECT_EQ(c.config(), cfg(7, 7, 0));
  HarmoniaKernel m(settings(), space());
  m.observe(sens(0.5, 0.5), 10.0);
  EXPECT_EQ(m.config(), cfg(3, 6, 3));
  // Core DVFS only: the CU count and memory clock stay at the top.
  HarmoniaSettings d = settings();
  d.controlled = {false, true, false};
  HarmoniaKernel dv(d, space());
  dv.observe(sens(0.9, 0.1), 10.0);
  EXPECT_EQ(dv.config(), cfg(7, 4, 6));
}

TEST(HarmoniaKernel, ArtificialBinChangeIsReverted) {
  HarmoniaKernel k(settings(), space());
  k.observe(sens(0.1, 0.9), 10.0);  // CG: memory to 475
  ASSERT_EQ(k.config(), cfg(7, 7, 0));
  // The memory change made the kernel look bandwidth-sensitive: the change caused it.
  Json e = k.observe(sens(0.5, 0.9), 7.0);
  EXPECT_EQ(e["event"], "revert");
  EXPECT_EQ(k.config(), cfg(7, 7, 6));
  EXPECT_EQ(k.dithers(), 1u);
  EXPECT_FALSE(k.held(kMemFreq));  // a CG jump is not held: FG may try one step below
  // Back at the top the old bins come back: same bins as before the change -> FG.
  e = k.observe(sens(0.1, 0.9), 10.0);
  EXPECT_EQ(e["event"], "fg-down");
  EXPECT_EQ(k.config(), cfg(7, 7, 5));  // compute HIGH is not stepped
  // That step moves the bins again and costs performance: reverted and held (one step).
  e = k.observe(sens(0.35, 0.9), 9.0);
  EXPECT_EQ(e["event"], "revert");
  EXPECT_TRUE(k.held(kMemFreq));
  EXPECT_EQ(k.config(), cfg(7, 7, 6));
  e = k.observe(sens(0.1, 0.9), 10.0);
  EXPECT_EQ(e["event"], "converged");
  EXPECT_TRUE(k.frozen());
  EXPECT_EQ(k.observe(sens(0.1, 0.9), 10.0)["event"], "hold");
}

TEST(HarmoniaKernel, AnFgStepThatMovesTheBinsWithoutALossIsKept) {
  HarmoniaSettings s = settings();
  s.fg_skip_high = false;
  HarmoniaKernel k(s, space());
  k.observe(sens(0.5, 0.5), 10.0);  // CG -> (3,6,3)
  k.observe(sens(0.5, 0.5), 10.0);  // FG -> (2,5,2)
  // Fewer CUs relieved the L2: the kernel now reads compute-bound, and it is no slower.
  Json e = k.observe(sens(0.5, 0.8), 10.1);
  EXPECT_EQ(e["rebinned"], true);
  EXPECT_EQ(e["event"], "fg-down");
  EXPECT_EQ(k.config(), cfg(1, 4, 1));
  // The literal Algorithm 1 reverts it as an artificial change.
  s.keep_good_fg_steps = false;
  HarmoniaKernel lit(s, space());
  lit.observe(sens(0.5, 0.5), 10.0);
  lit.observe(sens(0.5, 0.5), 10.0);
  EXPECT_EQ(lit.observe(sens(0.5, 0.8), 10.1)["event"], "revert");
  EXPECT_EQ(lit.config(), cfg(3, 6, 3));
}

TEST(HarmoniaKernel, WarmUpInvocationsAreOnlyWatched) {
  HarmoniaSettings s = settings();
  s.warmup = 1;
  HarmoniaKernel k(s, space());
  EXPECT_EQ(k.observe(sens(0.9, 0.1), 3.0)["event"], "warmup");
  EXPECT_EQ(k.config(), cfg(7, 7, 6));
  EXPECT_EQ(k.observe(sens(0.9, 0.1), 3.1)["event"], "cg");
  EXPECT_EQ(k.config(), cfg(1, 4, 6));
  EXPECT_DOUBLE_EQ(k.reference(), 3.1);  // the warm invocation is the reference
}

TEST(HarmoniaKernel, FineGrainStepsDownWhileTheGradientIsZero) {
  HarmoniaSettings s = settings();
  s.fg_skip_high = false;
  HarmoniaKernel k(s, space());
  k.observe(sens(0.5, 0.5), 10.0);  // CG -> 16 CUs, 900 MHz, 925 MHz
  ASSERT_EQ(k.config(), cfg(3, 6, 3));
  Json e = k.observe(sens(0.5, 0.5), 10.1);  // no loss: all three one step down
  EXPECT_EQ(e["event"], "fg-down");
  EXPECT_EQ(k.config(), cfg(2, 5, 2));
  EXPECT_EQ(k.last_good(), cfg(3, 6, 3));
  e = k.observe(sens(0.5, 0.5), 9.85);  // -1.5%: within the 2% tolerance, a zero gradient
  EXPECT_EQ(e["event"], "fg-down");
  EXPECT_EQ(k.config(), cfg(1, 4, 1));
  EXPECT_DOUBLE_EQ(k.reference(), 10.0);  // noise does not move the reference
  // fg_skip_high: a HIGH bin's tunables are left alone.
  HarmoniaKernel h(settings(), space());
  h.observe(sens(0.9, 0.5), 10.0);  // -> 16 CUs, 900 MHz, 1375 MHz
  h.observe(sens(0.9, 0.5), 10.0);
  EXPECT_EQ(h.config(), cfg(2, 5, 6));
}

TEST(HarmoniaKernel, NegativeGradientRevertsTheResponsibleTunableAndCountsADither) {
  HarmoniaSettings s = settings();
  s.fg_skip_high = false;
  HarmoniaKernel k(s, space());
  k.observe(sens(0.5, 0.5), 10.0);  // CG
  k.observe(sens(0.5, 0.5), 10.0);  // FG: (3,6,3) -> (2,5,2)
  ASSERT_EQ(k.config(), cfg(2, 5, 2));
  // Loss. Predicted impacts of the three steps: CU 0.5 x 4/16 = 0.125, clock 0.5 x 100/900 = 0.056,
  // memory 0.5 x 150/925 = 0.081: the CU count is reverted and held.
  Json e = k.observe(sens(0.5, 0.5), 9.0);
  EXPECT_EQ(e["event"], "fg-up");
  EXPECT_EQ(e["responsible"], "cus");
  EXPECT_EQ(k.dithers(), 1u);
  EXPECT_TRUE(k.held(kCuCount));
  EXPECT_EQ(k.config(), cfg(3, 5, 2));
  // Still a loss: next the memory clock.
  e = k.observe(sens(0.5, 0.5), 9.5);
  EXPECT_EQ(e["responsible"], "mem_mhz");
  EXPECT_EQ(k.config(), cfg(3, 5, 3));
  // Good now: the last good state; the clock (not held) steps down again.
  e = k.observe(sens(0.5, 0.5), 10.0);
  EXPECT_EQ(e["event"], "fg-down");
  EXPECT_EQ(k.last_good(), cfg(3, 5, 3));
  EXPECT_EQ(k.config(), cfg(3, 4, 3));
  e = k.observe(sens(0.5, 0.5), 9.0);
  EXPECT_EQ(e["responsible"], "sm_mhz");
  EXPECT_EQ(k.config(), cfg(3, 5, 3));
  // Every tunable held: converged at the balance point.
  e = k.observe(sens(0.5, 0.5), 10.0);
  EXPECT_EQ(e["event"], "converged");
  EXPECT_EQ(k.config(), cfg(3, 5, 3));
  EXPECT_EQ(k.dithers(), 3u);
}

TEST(HarmoniaKernel, TooManyDithersSettleAtTheLastZeroGradientState) {
  HarmoniaSettings s = settings();
  s.fg_skip_high = false;
  s.max_dither = 1;
  HarmoniaKernel k(s, space());
  k.observe(sens(0.5, 0.5), 10.0);          // CG -> (3,6,3)
  k.observe(sens(0.5, 0.5), 10.0);          // good -> (2,5,2)
  k.observe(sens(0.5, 0.5), 9.0);           // dither 1: CU back -> (3,5,2)
  Json e = k.observe(sens(0.5, 0.5), 9.0);  // dither 2 > 1: settle
  EXPECT_EQ(e["event"], "settle");
  EXPECT_EQ(k.config(), cfg(3, 6, 3));  // the last state with zero gradient
  EXPECT_TRUE(k.frozen());
  EXPECT_EQ(k.observe(sens(0.5, 0.5), 9.0)["event"], "hold");
  // A real phase change (bins move with no configuration change) restarts CG.
  e = k.observe(sens(0.1, 0.9), 12.0);
  EXPECT_EQ(e["event"], "cg");
  EXPECT_EQ(k.config(), cfg(7, 7, 0));
  EXPECT_EQ(k.dithers(), 0u);
  EXPECT_FALSE(k.frozen());
}

TEST(HarmoniaKernel, CgOvershootIsUndoneForTheResponsibleTunable) {
  HarmoniaKernel k(settings(), space());
  k.observe(sens(0.9, 0.1), 10.0);  // CG -> 8 CUs, 700 MHz, 1375
  ASSERT_EQ(k.config(), cfg(1, 4, 6));
  Json e = k.observe(sens(0.9, 0.1), 5.0);  // half the performance
  EXPECT_EQ(e["event"], "fg-up");
  EXPECT_EQ(e["responsible"], "cus");   // 0.1 x 24/32 = 0.075 > 0.1 x 300/1000 = 0.03
  EXPECT_EQ(k.config(), cfg(7, 4, 6));  // back to its last good value (32 CUs)
  EXPECT_FALSE(k.held(kCuCount));       // a multi-step jump: FG may try below it
  e = k.observe(sens(0.9, 0.1), 10.0);
  EXPECT_EQ(e["event"], "fg-down");
  EXPECT_EQ(k.config(), cfg(6, 3, 6));
}

TEST(HarmoniaKernel, CgOnlyHoldsAfterTheCoarseStep) {
  HarmoniaSettings s = settings();
  s.fine_grain = false;
  HarmoniaKernel k(s, space());
  k.observe(sens(0.9, 0.1), 10.0);
  HConfig c = k.config();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(k.observe(sens(0.9, 0.1), 5.0)["event"], "hold");
  EXPECT_EQ(k.config(), c);
}

TEST(HarmoniaKernel, StateIsCarriedAcrossIterationsPerKernel) {
  // Two kernels interleaved, as an iterative application runs them: each keeps its own state.
  HarmoniaKernel a(settings(), space()), b(settings(), space());
  for (int it = 0; it < 6; ++it) {
    a.observe(sens(0.1, 0.9), 10.0);  // compute-bound: memory to 475, then converged
    b.observe(sens(0.9, 0.1), 3.0);   // bandwidth-bound: fewer CUs and a lower clock
  }
  EXPECT_EQ(a.config().v[kMemFreq], 0);
  EXPECT_EQ(a.config().v[kCuCount], 7);
  EXPECT_TRUE(a.frozen());
  EXPECT_EQ(b.config().v[kMemFreq], 6);
  EXPECT_LT(b.config().v[kCuCount], 1);  // 8 CUs from CG, then FG down to 4
  EXPECT_EQ(a.invocations(), 6u);
}

TEST(HarmoniaPolicy, ParsesTheBinTableAndRejectsBadValues) {
  DvfsConfig d;
  for (int f = 300; f <= 1000; f += 100) d.domain[0].levels.push_back({"f" + std::to_string(f), double(f), 1.0});
  for (int m = 475; m <= 1375; m += 150) d.domain[1].levels.push_back({"m" + std::to_string(m), double(m), 1.5});
  Json doc = {
      {"cg_cus", {12, 16, 32}}, {"cg_mem_mhz", {475, 1075, 1375}}, {"mode", "cg"}, {"tunables", {"cus", "mem_mhz"}}};
  JsonReader r(doc, "run.json", "policy");
  const std::string name = "harmonia";
  ControllerSetup ctl;
  ctl.sm_count = 32;
  const PolicyTarget target{name, d, ctl};
  HarmoniaPolicySettings s = read_harmonia_settings(r, target);
  EXPECT_EQ(s.model.cg[kCuCount], (std::array<int, 3>{2, 3, 7}));
  EXPECT_EQ(s.model.cg[kMemFreq], (std::array<int, 3>{0, 4, 6}));
  EXPECT_EQ(s.model.cg[kCuFreq], (std::array<int, 3>{7, 7, 7}));  // default: the top clock in every bin
  EXPECT_FALSE(s.model.fine_grain);
  EXPECT_FALSE(s.model.controlled[kCuFreq]);
  for (const Json& bad : {Json{{"cg_cus", {12, 16}}}, Json{{"cg_mem_mhz", {500, 925, 1375}}},
                          Json{{"cg_cus", {16, 12, 32}}}, Json{{"tunables", {"volts"}}}, Json{{"mode", "fg"}}}) {
    JsonReader rb(bad, "run.json", "policy");
    EXPECT_THROW(read_harmonia_settings(rb, target), InputError) << bad.dump();
  }
}

}  // namespace
}  // namespace gpupm
