// The platform's behaviour properties (tests/behaviour_test.cc) on real
// kernels: CUDA programs of configs/workloads/cuda/ compiled to PTX and
// executed by the SMs. Nothing in the model knows these programs: compute-,
// bandwidth- and cache-bound behaviour comes from their own code.
#include <gtest/gtest.h>

#include "support/report_runner.h"
#include "support/test_support.h"

using gpupm::test::run_sim;
using gpupm::test::sim_time;

namespace {

std::string program(const std::string& name) {
  return gpupm::test::source_path("configs/workloads/cuda/" + name + "/" + name + ".json");
}

nlohmann::json total_of(const std::string& name, const std::string& args) {
  auto r = run_sim(program(name), args, "prog");
  EXPECT_EQ(r.status, 0) << r.output;
  return r.status == 0 ? r.report["total"] : nlohmann::json();
}

double time_of(const std::string& name, const std::string& args) {
  auto t = total_of(name, args);
  return t.is_null() ? 0.0 : t["sim_time_s"].get<double>();
}

std::string ctas(int n) { return "--policy static --set policy.ctas_per_sm=" + std::to_string(n); }

}  // namespace

// Compute-bound FMA loop: SM clock +15% gives >= +13%; memory clock +-15% moves it <= 2%.
TEST(ProgramBehaviour, FmaLoopFollowsSmClockOnly) {
  const double base = time_of("fma_loop", "--policy baseline");
  ASSERT_GT(base, 0.0);
  EXPECT_GE(base / time_of("fma_loop", "--policy sm-high"), 1.13);
  EXPECT_NEAR(base / time_of("fma_loop", "--policy mem-high"), 1.0, 0.02);
  EXPECT_NEAR(base / time_of("fma_loop", "--policy mem-low"), 1.0, 0.02);
}

// Streaming copy: >= 85% of peak DRAM bandwidth; memory clock +15% gives >= +10%.
TEST(ProgramBehaviour, StreamCopyIsBandwidthBound) {
  const auto base = total_of("stream_copy", "--policy baseline");
  ASSERT_FALSE(base.is_null());
  EXPECT_GE(base["dram_bandwidth_utilisation"].get<double>(), 0.85);
  EXPECT_GE(base["sim_time_s"].get<double>() / time_of("stream_copy", "--policy mem-high"), 1.10);
}

// Cache re-read: fewer CTAs per SM run faster than the most, the L1 hit rate rising.
TEST(ProgramBehaviour, CacheRereadFasterWithFewerCtas) {
  const auto few = total_of("cache_reread", ctas(1));
  const auto most = total_of("cache_reread", "--policy baseline");
  ASSERT_FALSE(few.is_null());
  ASSERT_FALSE(most.is_null());
  EXPECT_LT(few["sim_time_s"].get<double>(), most["sim_time_s"].get<double>());
  EXPECT_GT(few["l1_hit_rate"].get<double>(), most["l1_hit_rate"].get<double>());
}

// Same inputs, same bits: two runs give identical reports and buffers.
TEST(ProgramBehaviour, Deterministic) {
  auto a = run_sim(program("histogram"), "--policy baseline", "det");
  auto b = run_sim(program("histogram"), "--policy baseline", "det");
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  EXPECT_EQ(gpupm::test::read_file(a.out_dir + "/report.json"), gpupm::test::read_file(b.out_dir + "/report.json"));
  EXPECT_EQ(gpupm::test::read_file(a.out_dir + "/epochs.csv"), gpupm::test::read_file(b.out_dir + "/epochs.csv"));
}
