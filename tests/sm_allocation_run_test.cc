// The SM allocation policies through `gpupm run` on the 15-SM GTX480 (profiles
// step 5: points at 5, 10, 15 SMs; co-running cap 10): a compute application
// paired with a streaming one as a queue pair (re-spawned until the slower
// ends), with hand-written profiles that give each policy a known split. Each
// test checks the direction of one policy's effect in a child process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "support/report_runner.h"
#include "support/test_support.h"

using gpupm::test::run_gpupm;
using gpupm::test::run_sim;
using gpupm::test::source_path;
using gpupm::test::temp_dir;
using nlohmann::json;

namespace {

// compute: IPC proportional to n, IPC/W rising (opt 15); stream: flat IPC, IPC/W falling (opt 5).
json point(int n, double ipc, double w) {
  return {{"n", n},           {"time_s", 1e-4}, {"ipc", ipc},        {"power_w", w},       {"pow_ef", ipc / w},
          {"dram_gbps", 1.0}, {"mbu", 0.0},     {"l2_l1_gbps", 1.0}, {"l2_hit_rate", 0.5}, {"mcr", 0.1}};
}
json profiles(int sms = 15) {
  json compute = json::array(), stream = json::array();
  for (int n = 5; n <= sms; n += 5) {
    compute.push_back(point(n, 2.0 * n, 30 + 6 * n));
    stream.push_back(point(n, n == 5 ? 3.0 : 3.1, 40 + 4 * n));
  }
  return {{"format", "gpupm-sm-profiles"},
          {"gpu", "gtx480"},
          {"sms", sms},
          {"step", 5},
          {"apps",
           {{{"name", "compute"}, {"class", "A"}, {"opt", sms}, {"points", compute}},
            {{"name", "stream"}, {"class", "M"}, {"opt", 5}, {"points", stream}}}}};
}

struct Files {
  std::string workload, profiles;
};
Files files(const std::string& tag, const json& prof = profiles()) {
  std::string dir = temp_dir(tag);
  Files f{dir + "/pair.json", dir + "/profiles.json"};
  std::ofstream(f.workload) << gpupm::test::compute_stream_pair(90, 120);
  std::ofstream(f.profiles) << prof.dump();
  return f;
}

double leak_w(const json& r) {
  return r["total"]["energy_j"]["by_component"]["sm_leakage"].get<double>() / r["total"]["sim_time_s"].get<double>();
}

TEST(SmAllocationRun, PartitionGivesTheEfficientAppMoreSmsAndRaisesThroughput) {
  Files f = files("sma_part");
  auto base = run_sim(f.workload, "--policy baseline", "sma_base");
  auto sa = run_sim(f.workload, "--policy sm-allocation --set policy.profiles=" + f.profiles, "sma_sa");
  ASSERT_EQ(base.status, 0) << base.output;
  ASSERT_EQ(sa.status, 0) << sa.output;
  // opt 15 = K drops to the cap 10; compute is the more power-efficient: stream keeps its opt 5.
  EXPECT_EQ(sa.report["config"]["policy"]["split"], (json{10, 5}));
  EXPECT_EQ(sa.report["config"]["policy"]["case"], 1);
  // The queue pair: the compute app, done first, re-spawned; the run ends with the stream app's first pass.
  const json& apps = sa.report["apps"];
  EXPECT_GE(apps[0]["passes"].get<int>(), 2);
  EXPECT_EQ(apps[1]["passes"], 1);
  EXPECT_DOUBLE_EQ(apps[1]["first_pass_s"].get<double>(), sa.report["total"]["sim_time_s"].get<double>());
  // Throughput (all instructions over all SM cycles) well above the even split (7/8).
  EXPECT_GT(sa.report["total"]["ipc"].get<double>(), 1.2 * base.report["total"]["ipc"].get<double>());
  EXPECT_LT(apps[0]["first_pass_s"].get<double>(), base.report["apps"][0]["first_pass_s"].get<double>());
  // The report with the re-spawn fields matches the schema.
  std::string why;
  EXPECT_TRUE(gpupm::test::report_matches_schema(sa.out_dir + "/report.json", &why)) << why;
}

TEST(SmAllocationRun, AgingPowerTakesMinTimeCountsCappedAtHalfAndGatesTheRest) {
  Files f = files("sma_aging");
  auto r = run_sim(f.workload, "--policy aging-power --set policy.profiles=" + f.profiles, "sma_ap");
  ASSERT_EQ(r.status, 0) << r.output;
  // Caps 7 and 8 (the even split): the only profiled count below them is 5.
  EXPECT_EQ(r.report["config"]["policy"]["split"], (json{5, 5}));
  // 5 of 15 SMs power-gated from the start: SM leakage is 10 x 1.8 W at 1 V.
  EXPECT_NEAR(leak_w(r.report), 18.0, 0.2);
}

TEST(SmAllocationRun, PerfAgingLeavesItsSpareSmsPoweredAndIdle) {
  Files f = files("sma_perf");
  auto r = run_sim(
      f.workload,
      "--policy perf-aging --set policy.margin=0.6 --set policy.max_cut=0.7 --set policy.profiles=" + f.profiles,
      "sma_pa");
  ASSERT_EQ(r.status, 0) << r.output;
  // Within 60% of the best IPC at <= 10 SMs both need only 5; the other 5 are not gated.
  EXPECT_EQ(r.report["config"]["policy"]["split"], (json{5, 5}));
  EXPECT_NEAR(leak_w(r.report), 27.0, 0.2);  // all 15 SMs leak
  EXPECT_EQ(r.report["config"]["policy"]["gating"], "clock");
}

TEST(SmAllocationRun, IlpSmraMovesDrainedSmsFromTheStreamToTheComputeApp) {
  Files f = files("sma_smra");
  auto r = run_sim(f.workload, "--policy ilp-smra", "sma_smra");
  ASSERT_EQ(r.status, 0) << r.output;
  const json& tr = r.report["policy_trace"];
  ASSERT_TRUE(tr.is_array());
  EXPECT_EQ(tr[0]["event"], "split");
  EXPECT_EQ(tr[0]["sms"], (json{7, 8}));  // starts from the even split
  // The first decision takes an SM from the stream app (low IPC per SM); it is handed
  // over only after its CTAs drained, a while after the decision.
  double decided = -1, handed = -1;
  json first_split;
  for (const json& e : tr) {
    if (decided < 0 && e["event"] == "window" && e["move_from"] != -1) {
      EXPECT_EQ(e["move_from"], 1) << e;
      decided = e["time_us"].get<double>();
    }
    if (decided >= 0 && handed < 0 && e["event"] == "reassigned") {
      handed = e["time_us"].get<double>();
      first_split = e["sms"];
    }
  }
  ASSERT_GE(decided, 0) << tr;
  ASSERT_GE(handed, 0) << tr;
  EXPECT_EQ(first_split, (json{8, 7}));
  EXPECT_GT(handed - decided, 1.0);  // microseconds of draining
}

TEST(SmAllocationRun, BadProfilesExitTwoNamingTheFileAndPath) {
  Files f = files("sma_bad", profiles(20));
  std::string out_dir = temp_dir("sma_bad_out"), output;
  auto run = [&](const std::string& args) {
    return run_gpupm("run --quiet --gpu " + source_path("configs/gpu/gtx480.json") + " --workload " + f.workload +
                         " --out " + out_dir + " " + args,
                     &output);
  };
  EXPECT_EQ(run("--policy sm-allocation --set policy.profiles=" + f.profiles), 2);
  EXPECT_NE(output.find(f.profiles + ": sms: the profiles were made on 20 SMs; this GPU has 15"), std::string::npos)
      << output;
  json other = profiles();
  other["apps"][1]["name"] = "streaming";
  std::ofstream(f.profiles) << other.dump();
  EXPECT_EQ(run("--policy aging-power --set policy.profiles=" + f.profiles), 2);
  EXPECT_NE(
      output.find(f.profiles + ": apps: no profile named \"stream\" (application 1 of the workload); the file has "
                               "{compute, streaming}"),
      std::string::npos)
      << output;
  EXPECT_EQ(run("--policy perf-aging"), 2);
  EXPECT_NE(output.find("policy.profiles"), std::string::npos) << output;
  EXPECT_EQ(run("--policy sm-allocation --set policy.profiles=/nonexistent/p.json"), 2);
  EXPECT_NE(output.find("/nonexistent/p.json"), std::string::npos) << output;
  // A single application: these policies share SMs between two.
  EXPECT_EQ(run_gpupm("run --quiet --gpu " + source_path("configs/gpu/gtx480.json") + " --workload " +
                          source_path("configs/workloads/compute.json") + " --out " + out_dir + " --policy ilp-smra",
                      &output),
            2);
  EXPECT_NE(output.find("\"ilp-smra\" shares the SMs between two co-running applications; the workload has 1"),
            std::string::npos)
      << output;
  EXPECT_FALSE(std::ifstream(out_dir + "/report.json").good());
}

}  // namespace
