// The 60-SM Pascal config (configs/gpu/pascal_60sm.json): the behaviour tests
// that make sense on it (docs/calibration.md#pascal), every policy runs on it,
// and its unified L1/shared array gives a kernel's shared memory L1 ways.
// The profiles are sized for 15 SMs (two waves of 6 CTAs per SM): their grids
// are scaled x4 here, as scripts/calibration_table.py does.
#include <gtest/gtest.h>

#include "support/report_runner.h"
#include "support/test_support.h"

#include <fstream>
#include <string>

using gpupm::test::cuda_workload;
using gpupm::test::run_sim;
using gpupm::test::temp_dir;
using nlohmann::json;

namespace {

const char* kPascal = "configs/gpu/pascal_60sm.json";

json total_of(const std::string& workload, const std::string& args) {
  auto r = run_sim(workload, args, "pascal", kPascal);
  EXPECT_EQ(r.status, 0) << r.output;
  return r.status == 0 ? r.report["total"] : json();
}

// A profile at 60 SMs: its grid x4.
json profile(const std::string& name, const std::string& args) {
  return total_of(name, args + " --set workload.kernels[0].grid_ctas=720");
}
double time_of(const std::string& name, const std::string& args) {
  const json t = profile(name, args);
  return t.is_null() ? 0.0 : t["sim_time_s"].get<double>();
}

}  // namespace

TEST(PascalBehaviour, ComputeBoundFollowsSmClockOnly) {
  const double base = time_of("compute", "--policy baseline");
  EXPECT_GE(base / time_of("compute", "--policy sm-high"), 1.13);
  EXPECT_NEAR(base / time_of("compute", "--policy mem-high"), 1.0, 0.02);
  EXPECT_NEAR(base / time_of("compute", "--policy mem-low"), 1.0, 0.02);
}

TEST(PascalBehaviour, StreamingIsBandwidthBound) {
  const json base = profile("streaming", "--policy baseline");
  ASSERT_FALSE(base.is_null());
  EXPECT_GE(base["dram_bandwidth_utilisation"].get<double>(), 0.85);
  const double t = base["sim_time_s"].get<double>();
  EXPECT_GE(t / time_of("streaming", "--policy mem-high"), 1.10);
  EXPECT_NEAR(t / time_of("streaming", "--policy sm-high"), 1.0, 0.03);
}

// The 64 KB L1 holds 4 of the probe's 16 KB CTA working sets: the hit rate
// falls past 4 CTAs, and a count below the most runs fastest.
TEST(PascalBehaviour, CacheSensitiveBestBelowMaxCtas) {
  const auto sweep = gpupm::test::sweep_cta_limits(6, [](int n) {
    return profile("cache_sensitive", "--policy static --set policy.ctas_per_sm=" + std::to_string(n));
  });
  ASSERT_EQ(sweep.l1_hit.size(), 6u);
  EXPECT_GT(sweep.l1_hit[3], sweep.l1_hit[5] + 0.1);  // falls past the 4 CTAs the L1 holds
  EXPECT_LT(sweep.best_n, 6);
  EXPECT_GE(sweep.speedup_over_max, 1.3) << "best fixed count " << sweep.best_n;
}

namespace {

const char* kRereadShared = R"(
extern "C" __global__ void reread_shared(const unsigned* data, unsigned* __restrict__ out, int passes) {
  extern __shared__ unsigned staged[];
  const unsigned* mine = data + ((blockIdx.x * blockDim.x + threadIdx.x) >> 5) * 256 + (threadIdx.x & 31);
  unsigned sum = 0;
  for (int i = 0; i < passes * 8; ++i) {
    sum += mine[(i & 7) * 32];
    asm volatile("" ::: "memory");
  }
  staged[threadIdx.x] = sum;
  out[blockIdx.x * blockDim.x + threadIdx.x] = staged[threadIdx.x];
}
)";

json reread_with_shared(const std::string& dir, uint32_t shared_bytes) {
  std::ofstream(dir + "/reread_shared.cu") << kRereadShared;
  const std::string file = dir + "/reread_shared_" + std::to_string(shared_bytes) + ".json";
  std::ofstream(file) << json{{"name", "reread_shared"},
                              {"program", "reread_shared.cu"},
                              {"buffers",
                               {{"data",
                                 {{"type", "u32"},
                                  {"count", 368640},
                                  {"init", {{"random", {{"min", 0}, {"max", 1000}, {"seed", 9}}}}}}},
                                {"out", {{"type", "u32"}, {"count", 46080}}}}},
                              {"launches", json::array({{{"kernel", "reread_shared"},
                                                         {"grid", {180}},
                                                         {"block", {256}},
                                                         {"shared_bytes", shared_bytes},
                                                         {"args", {"data", "out", 32}}}})}}
                             .dump();
  return total_of(file, "--policy baseline");
}

}  // namespace

TEST(PascalBehaviour, SharedMemoryCarveoutShrinksTheL1) {
  const std::string dir = temp_dir("pascal_carve");
  const json small = reread_with_shared(dir, 1024);
  const json large = reread_with_shared(dir, 16384);
  ASSERT_FALSE(small.is_null());
  ASSERT_FALSE(large.is_null());
  EXPECT_NEAR(small["mean_ctas_per_sm"].get<double>(), large["mean_ctas_per_sm"].get<double>(), 0.3);
  EXPECT_GT(small["l1_hit_rate"].get<double>(), 0.9);
  EXPECT_LT(large["l1_hit_rate"].get<double>(), small["l1_hit_rate"].get<double>() - 0.2);
}

// Every single-application policy runs on the Pascal config.
TEST(PascalPolicies, EverySingleAppPolicyRuns) {
  for (const char* policy : {"baseline", "sm-high", "sm-low", "mem-high", "mem-low", "static", "equalizer-perf",
                             "equalizer-energy", "dyncta", "core-shutdown", "core-dvfs", "static-point", "harmonia"}) {
    const json t = total_of("compute", std::string("--policy ") + policy);
    ASSERT_FALSE(t.is_null()) << policy;
    EXPECT_EQ(t["ctas_completed"], 180) << policy;
  }
}

// The SM allocation policies on 60 SMs: a compute and a streaming application
// as a queue pair, with profiles at 5, 10, ..., 60 SMs.
TEST(PascalPolicies, SmAllocationPoliciesRun) {
  const std::string dir = temp_dir("pascal_pair");
  std::ofstream(dir + "/pair.json") << gpupm::test::compute_stream_pair(360, 480);
  json compute = json::array(), stream = json::array();
  for (int n = 5; n <= 60; n += 5) {
    auto point = [&](double ipc, double w) {
      return json{{"n", n},           {"time_s", 1e-4}, {"ipc", ipc},        {"power_w", w},       {"pow_ef", ipc / w},
                  {"dram_gbps", 1.0}, {"mbu", 0.0},     {"l2_l1_gbps", 1.0}, {"l2_hit_rate", 0.5}, {"mcr", 0.1}};
    };
    compute.push_back(point(3.5 * n, 80 + 6 * n));
    stream.push_back(point(n <= 20 ? 0.5 * n : 10.0, 80 + 4 * n));
  }
  std::ofstream(dir + "/profiles.json")
      << json{{"format", "gpupm-sm-profiles"},
              {"gpu", "pascal_60sm"},
              {"sms", 60},
              {"step", 5},
              {"apps",
               {{{"name", "compute"}, {"class", "A"}, {"opt", 60}, {"points", compute}},
                {{"name", "stream"}, {"class", "M"}, {"opt", 20}, {"points", stream}}}}}
             .dump();
  const std::string profiles = " --set policy.profiles=" + dir + "/profiles.json";
  for (const char* policy : {"sm-allocation", "aging-power", "perf-aging"}) {
    auto r = run_sim(dir + "/pair.json", std::string("--policy ") + policy + profiles, "pascal_pair", kPascal);
    ASSERT_EQ(r.status, 0) << policy << r.output;
    const json split = r.report["config"]["policy"]["split"];
    EXPECT_LE(split[0].get<int>() + split[1].get<int>(), 60) << policy;
  }
  auto smra = run_sim(dir + "/pair.json", "--policy ilp-smra", "pascal_pair", kPascal);
  ASSERT_EQ(smra.status, 0) << smra.output;
  EXPECT_EQ(smra.report["policy_trace"][0]["sms"], (json{30, 30}));
}
