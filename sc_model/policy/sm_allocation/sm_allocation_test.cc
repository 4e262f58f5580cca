// The SM allocation decisions without a simulation: Algorithm 1 (prose and the
// printed pseudo-code), the comparison policies' splits, ILP-SMRA's rule, the
// pairing, the class thresholds and the profiles file's validation.
#include "gpupm/policy/sm_allocation/partition.h"
#include "gpupm/policy/sm_allocation/sm_allocation_policy.h"
#include "gpupm/policy/sm_allocation/sm_profiles.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace gpupm {
namespace {

PartitionInput in(uint32_t opt1, uint32_t opt2, double ef1, double ef2, uint32_t k = 60, uint32_t step = 5) {
  PartitionInput i;
  i.opt1 = opt1;
  i.opt2 = opt2;
  i.pow_ef1 = ef1;
  i.pow_ef2 = ef2;
  i.k_tot = k;
  i.step = step;
  return i;
}

// A profile on n = step..k with the given IPCs and powers (pow_ef = ipc / power).
AppProfile profile(const std::string& name, const std::vector<double>& ipc, std::vector<double> power = {},
                   uint32_t step = 5) {
  AppProfile p;
  p.name = name;
  p.cls = "A";
  for (size_t i = 0; i < ipc.size(); ++i) {
    ProfilePoint x;
    x.n = uint32_t(i + 1) * step;
    x.ipc = ipc[i];
    x.power_w = power.empty() ? 100.0 : power[i];
    x.pow_ef = x.ipc / x.power_w;
    x.time_s = 1e-4 / std::max(1e-9, x.ipc);
    p.points.push_back(x);
  }
  p.opt = best_pow_ef(p.points);
  return p;
}

TEST(SmPartition, OptsThatFitAreGivenAndTheSurplusIsLeftOver) {
  EXPECT_EQ(partition(in(20, 30, 1.0, 2.0)), (Split{20, 30}));  // 10 left over, either case
  EXPECT_EQ(partition(in(20, 30, 2.0, 1.0)), (Split{20, 30}));
  EXPECT_EQ(partition(in(25, 35, 1.0, 2.0)), (Split{25, 35}));  // exactly K: nothing left over
  EXPECT_EQ(partition_as_printed(in(20, 30, 1.0, 2.0)), (Split{20, 30}));
}

TEST(SmPartition, CaseIsThePowerEfficiencyAtOptAndTheLessEfficientAppYields) {
  EXPECT_EQ(partition_case(in(40, 30, 2.0, 1.0)), 1);
  EXPECT_EQ(partition_case(in(40, 30, 1.0, 2.0)), 2);
  EXPECT_EQ(partition_case(in(40, 30, 1.5, 1.5)), 2);           // a tie is case 2, as printed (">")
  EXPECT_EQ(partition(in(40, 30, 2.0, 1.0)), (Split{40, 20}));  // App2 gives up 5 SMs at a time
  EXPECT_EQ(partition(in(40, 30, 1.0, 2.0)), (Split{30, 30}));  // App1 does
  EXPECT_EQ(partition(in(45, 45, 1.0, 2.0)), (Split{15, 45}));
}

TEST(SmPartition, AnOptOfAllSmsFirstDropsToTheCoRunningCap) {
  EXPECT_EQ(partition(in(60, 20, 2.0, 1.0)), (Split{55, 5}));   // 55 + 20 > 60: App2 down to 5
  EXPECT_EQ(partition(in(60, 20, 1.0, 2.0)), (Split{40, 20}));  // App1 from 55 down to 40
  EXPECT_EQ(partition(in(60, 60, 2.0, 1.0)), (Split{55, 5}));
  EXPECT_EQ(partition(in(20, 60, 1.0, 2.0)), (Split{5, 55}));
  EXPECT_EQ(partition(in(5, 60, 1.0, 2.0)), (Split{5, 55}));  // 5 + 55 fits after the cap
}

TEST(SmPartition, PrintedPseudoCodeStartsFromZeroAndReturnsNothingWhenNoOptIsK) {
  // Algorithm 1 as printed sets kappa to 0 and only assigns K - 5 to an opt of K,
  // so a pair whose opts do not fit and are both below K gets no SMs at all;
  // the prose ("kappa can have values of opt or lower") starts from opt.
  EXPECT_EQ(partition_as_printed(in(40, 30, 2.0, 1.0)), (Split{0, 0}));
  EXPECT_EQ(partition(in(40, 30, 2.0, 1.0)), (Split{40, 20}));
  // With one opt at K the printed version leaves the other application without SMs.
  EXPECT_EQ(partition_as_printed(in(60, 20, 2.0, 1.0)), (Split{55, 0}));
  EXPECT_EQ(partition(in(60, 20, 2.0, 1.0)), (Split{55, 5}));
  // Both at K: the two readings agree.
  EXPECT_EQ(partition_as_printed(in(60, 60, 2.0, 1.0)), partition(in(60, 60, 2.0, 1.0)));
}

TEST(SmPartition, StepAndSmCountComeFromTheGpu) {
  EXPECT_EQ(partition(in(24, 10, 2.0, 1.0, 24, 2)), (Split{22, 2}));
  EXPECT_EQ(partition(in(14, 14, 1.0, 2.0, 24, 2)), (Split{10, 14}));
  EXPECT_EQ(partition(in(15, 15, 1.0, 2.0, 15, 5)), (Split{5, 10}));  // gtx480: cap 10
  // Opts that are not multiples of the step (no profile has them): the yielding app keeps one step.
  Split s = partition(in(58, 59, 2.0, 1.0, 60, 5));
  EXPECT_LE(s.k1 + s.k2, 60u);
  EXPECT_GE(s.k2, 5u);
}

TEST(SmPartition, InputFromProfilesUsesOptAndItsPowerEfficiency) {
  AppProfile a = profile("a", {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120},
                         {100, 120, 140, 160, 180, 200, 220, 240, 260, 280, 300, 320});
  AppProfile m = profile("m", {10, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16},
                         {100, 110, 130, 150, 170, 190, 210, 230, 250, 270, 290, 310});
  EXPECT_EQ(a.opt, 60u);
  EXPECT_EQ(m.opt, 10u);
  PartitionInput i = partition_input(a, m, 60, 5);
  EXPECT_EQ(i.opt1, 60u);
  EXPECT_EQ(i.opt2, 10u);
  EXPECT_DOUBLE_EQ(i.pow_ef1, 120.0 / 320.0);
  EXPECT_DOUBLE_EQ(i.pow_ef2, 15.0 / 110.0);
  EXPECT_EQ(partition(i), (Split{55, 5}));
}

TEST(SmComparisonSplits, AgingPowerTakesTheMinTimeCountWithinItsMarginCappedAtHalf) {
  // The paper's example: min-time counts 20 and 40 give 20 + 30, 10 SMs gated.
  std::vector<double> rise20 = {10, 20, 30, 40, 40, 40, 40, 40, 40, 40, 40, 40};
  std::vector<double> rise40 = {10, 20, 30, 40, 50, 60, 70, 80, 80, 80, 80, 80};
  AppProfile a = profile("a", rise20), b = profile("b", rise40);
  EXPECT_EQ(aging_power_split(a, b, 60, 0.08), (Split{20, 30}));
  // The 8% margin takes fewer SMs when the IPC is within 8% of the best one.
  AppProfile flat = profile("f", {10, 19, 19.5, 20, 20, 20, 20, 20, 20, 20, 20, 20});
  EXPECT_EQ(fewest_sms_within(flat, 30, 0.08), 10u);  // 19 >= 0.92 x 20
  EXPECT_EQ(fewest_sms_within(flat, 30, 0.0), 20u);   // the minimum-time count itself
  EXPECT_EQ(aging_power_split(flat, flat, 60, 0.08), (Split{10, 10}));
}

TEST(SmComparisonSplits, PerfAgingCutsBothDownToItsFloorOnAConflict) {
  std::vector<double> linear = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120};
  AppProfile a = profile("a", linear), b = profile("b", linear);
  // Each wants the fewest SMs within 10% of its best IPC at <= 55 SMs: 50 (100 >= 0.9 x 110).
  // 100 > 60: both are cut, alternately, never below 20% under their best (45 SMs: 90 >= 88)...
  // and still 90 > 60: shares in proportion.
  EXPECT_EQ(perf_aging_split(a, b, 60, 5, 0.10, 0.20), (Split{30, 30}));
  // Demands that fit are given as they are; the rest stays idle (not power-aware).
  AppProfile sat = profile("s", {10, 20, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25});
  EXPECT_EQ(perf_aging_split(sat, sat, 60, 5, 0.10, 0.20), (Split{15, 15}));
  // A conflict settled within the floors (50 + 15 > 60): the app that keeps more of its
  // best IPC after giving up a step gives it (17/20 = 0.85 against 90/110 = 0.82).
  AppProfile knee = profile("k", {10, 17, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20});
  EXPECT_EQ(perf_aging_split(a, knee, 60, 5, 0.10, 0.20), (Split{50, 10}));
}

TEST(SmComparisonSplits, EvenSplitIsTheGwdeDefault) {
  EXPECT_EQ(even_split(60), (Split{30, 30}));
  EXPECT_EQ(even_split(15), (Split{7, 8}));
}

TEST(SmraRule, IdleSmsAndIpcPerSmImbalanceMoveOneStep) {
  SmraWindow w;
  w.sms[0] = 30;
  w.sms[1] = 30;
  w.ipc[0] = 57;  // 1.9 per SM
  w.ipc[1] = 30;  // 1.0 per SM: below 0.75 x 1.9
  SmraMove m = smra_decide(w, 5, 0.25);
  EXPECT_EQ(m.from, 1);
  EXPECT_EQ(m.count, 5u);
  w.ipc[1] = 50;  // 1.67: within 25%
  EXPECT_EQ(smra_decide(w, 5, 0.25).from, -1);
  w.idle[0] = 5;  // app 0 leaves SMs idle, app 1 none: app 0 gives them
  EXPECT_EQ(smra_decide(w, 5, 0.25).from, 0);
  w.idle[1] = 2;  // both leave some idle: no idle rule, and IPC per SM is balanced
  EXPECT_EQ(smra_decide(w, 5, 0.25).from, -1);
  // Never below one step.
  SmraWindow low;
  low.sms[0] = 55;
  low.sms[1] = 5;
  low.ipc[0] = 100;
  low.ipc[1] = 1;
  EXPECT_EQ(smra_decide(low, 5, 0.25).from, -1);
}

TEST(SmPairing, ExhaustiveMatchingMinimisesTheSummedCostCheapestPairFirst) {
  // Greedy would take 0-1 (1) and be left with 2-3 (10); 0-2 + 1-3 (3 + 3) is cheaper in sum.
  const double c[4][4] = {{0, 1, 3, 9}, {1, 0, 9, 3}, {3, 9, 0, 10}, {9, 3, 10, 0}};
  auto cost = [&](size_t i, size_t j) { return c[i][j]; };
  EXPECT_EQ(min_cost_pairs(4, cost), (std::vector<std::pair<size_t, size_t>>{{0, 2}, {1, 3}}));
  const double d[4][4] = {{0, 5, 1, 9}, {5, 0, 9, 3}, {1, 9, 0, 5}, {9, 3, 5, 0}};
  auto cost_d = [&](size_t i, size_t j) { return d[i][j]; };
  EXPECT_EQ(min_cost_pairs(4, cost_d), (std::vector<std::pair<size_t, size_t>>{{0, 2}, {1, 3}}));
  EXPECT_EQ(fcfs_pairs(6), (std::vector<std::pair<size_t, size_t>>{{0, 1}, {2, 3}, {4, 5}}));
  EXPECT_EQ(min_cost_pairs(6, [](size_t i, size_t j) { return double(i + j == 5 ? 0 : 1); }).size(), 3u);
}

TEST(SmPairing, SlowdownFromSoloProfilesWithDramContention) {
  std::vector<double> linear = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120};
  AppProfile a = profile("a", linear), b = profile("b", linear);
  EXPECT_DOUBLE_EQ(pair_slowdown(a, b, 60, 5), 4.0);  // each twice as slow on half the SMs, no DRAM traffic
  AppProfile m = profile("m", {10, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16});
  for (auto& p : m.points) p.dram_gbps = 100;  // saturated alone at any n
  AppProfile m2 = m;
  EXPECT_DOUBLE_EQ(pair_slowdown(m, m2, 60, 5), 4.0);  // 1 each, twice over: two saturating apps share one DRAM
  EXPECT_DOUBLE_EQ(pair_slowdown(a, m, 60, 5), 3.0);   // 2 + 1: the compute app pays for its SMs only
}

TEST(SmProfiles, ClassesFromTheFullGpuRun) {
  ClassThresholds t;
  ProfilePoint p;
  p.mbu = 0.1;
  p.l2_l1_gbps = 20;
  p.l2_hit_rate = 0.9;
  EXPECT_EQ(classify(p, t), "A");  // little traffic, whatever the hit rate
  p.l2_l1_gbps = 120;
  EXPECT_EQ(classify(p, t), "C");
  p.mbu = 0.6;
  p.l2_hit_rate = 0.35;
  EXPECT_EQ(classify(p, t), "MC");
  p.l2_hit_rate = 0.05;
  EXPECT_EQ(classify(p, t), "M");
}

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string profiles_text(uint32_t sms = 15, const std::string& points_b = "") {
  ProfileSet s;
  s.gpu = "test";
  s.sms = sms;
  s.step = 5;
  std::vector<double> ipc;
  for (uint32_t n = 5; n <= sms; n += 5) ipc.push_back(n);
  s.apps = {profile("a", ipc), profile("b", ipc)};
  Json j = profiles_json(s);
  if (!points_b.empty()) j["apps"][1]["points"][1]["n"] = std::stoi(points_b);
  return j.dump();
}

std::string input_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SmProfiles, RoundTripAndEveryBadInputNamesFilePathAndWhatIsAllowed) {
  std::string good = write_temp("prof_good.json", profiles_text());
  ProfileSet s = load_profiles(good);
  ASSERT_EQ(s.apps.size(), 2u);
  EXPECT_EQ(s.apps[0].points.size(), 3u);
  EXPECT_EQ(s.apps[0].at(10).ipc, 10.0);
  EXPECT_EQ(profiles_json(s), load_json_file(good));
  uint32_t step = 0;
  EXPECT_EQ(profiles_for_apps(good, {"b", "a"}, 15, &step)[0].name, "b");
  EXPECT_EQ(step, 5u);

  std::string e = input_error([&] { profiles_for_apps(good, {"a", "zz"}, 15, nullptr); });
  EXPECT_NE(e.find(good + ": apps: no profile named \"zz\" (application 1 of the workload); the file has {a, b}"),
            std::string::npos)
      << e;
  e = input_error([&] { profiles_for_apps(good, {"a", "b"}, 60, nullptr); });
  EXPECT_NE(e.find("sms: the profiles were made on 15 SMs; this GPU has 60"), std::string::npos) << e;
  std::string bad_n = write_temp("prof_bad_n.json", profiles_text(15, "7"));
  e = input_error([&] { load_profiles(bad_n); });
  EXPECT_NE(e.find(bad_n + ": apps[1].points[1].n: expected 10 (points at n = step, 2 step, ..., sms in order)"),
            std::string::npos)
      << e;
  Json j = load_json_file(good);
  j["apps"][0]["opt"] = 7;
  std::string bad_opt = write_temp("prof_bad_opt.json", j.dump());
  e = input_error([&] { load_profiles(bad_opt); });
  EXPECT_NE(e.find("apps[0].opt: expected one of the profiled SM counts (a multiple of step 5)"), std::string::npos)
      << e;
  j = load_json_file(good);
  j["apps"][0]["class"] = "X";
  std::string bad_class = write_temp("prof_bad_class.json", j.dump());
  e = input_error([&] { load_profiles(bad_class); });
  EXPECT_NE(e.find("apps[0].class: expected one of {A, M, C, MC}"), std::string::npos) << e;
  e = input_error([&] { load_profiles(::testing::TempDir() + "/no_such_profiles.json"); });
  EXPECT_NE(e.find("no_such_profiles.json"), std::string::npos) << e;
}

TEST(SmAllocationFactory, PoliciesNeedTwoAppsAndReadableProfiles) {
  std::string good = write_temp("prof_factory.json", profiles_text());
  ControllerSetup ctl;
  ctl.sm_count = 15;
  ctl.app_names = {"a", "b"};
  Json doc = {{"profiles", good}};
  JsonReader p(doc, "--policy/--set", "policy");
  const DvfsConfig dvfs;
  auto target = [&](const std::string& name, const ControllerSetup& c) { return PolicyTarget{name, dvfs, c}; };
  const std::string split = "sm-allocation", baseline = "baseline", aging = "aging-power", perf = "perf-aging";
  auto pol = make_sm_allocation_policy(p, target(split, ctl));
  ASSERT_TRUE(pol);
  p.finish();
  // a: opt 15 (pow_ef rises with n) -> cap 10; b the same; equal efficiency: case 2, App1 yields.
  EXPECT_EQ(pol->describe()["split"], (Json{5, 10}));
  EXPECT_TRUE(pol->handles_concurrent_apps());
  EXPECT_FALSE(make_sm_allocation_policy(p, target(baseline, ctl)));

  ControllerSetup one = ctl;
  one.app_names = {"a"};
  JsonReader p1(doc, "--policy/--set", "policy");
  std::string e = input_error([&] { make_sm_allocation_policy(p1, target(aging, one)); });
  EXPECT_NE(
      e.find("policy.name: \"aging-power\" shares the SMs between two co-running applications; the workload has 1"),
      std::string::npos)
      << e;
  Json missing = Json::object();
  JsonReader p2(missing, "--policy/--set", "policy");
  e = input_error([&] { make_sm_allocation_policy(p2, target(perf, ctl)); });
  EXPECT_NE(e.find("policy.profiles"), std::string::npos) << e;
  Json bad_gating = {{"profiles", good}, {"gating", "off"}};
  JsonReader p3(bad_gating, "--policy/--set", "policy");
  e = input_error([&] { make_sm_allocation_policy(p3, target(split, ctl)); });
  EXPECT_NE(e.find("policy.gating: expected one of {power, clock}, got \"off\""), std::string::npos) << e;
}

}  // namespace
}  // namespace gpupm
