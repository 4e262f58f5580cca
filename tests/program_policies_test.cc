// Every policy family runs on real programs as on profiles, and none changes
// what a program computes: the buffers a run leaves equal the baseline's bit
// for bit (matmul_tiled has no atomics, so its result does not depend on timing).
#include <gtest/gtest.h>

#include "support/report_runner.h"
#include "support/test_support.h"

#include <filesystem>

using gpupm::test::cuda_workload;
using gpupm::test::read_file;
using gpupm::test::run_sim;

namespace {

// Runs `name` with `args`, dumping its buffers; returns the run's out dir.
gpupm::test::RunResult run_dumped(const std::string& name, const std::string& args) {
  static int n = 0;
  const std::string dump = gpupm::test::temp_dir("dump" + std::to_string(n++));
  auto r = run_sim(cuda_workload(name), args + " --dump-buffers " + dump, "pol");
  r.out_dir = dump;  // where the buffers are
  return r;
}

void expect_same_result(const std::string& policy_args) {
  auto base = run_dumped("matmul_tiled", "--policy baseline");
  auto other = run_dumped("matmul_tiled", policy_args);
  ASSERT_EQ(base.status, 0) << base.output;
  ASSERT_EQ(other.status, 0) << other.output;
  const std::string c = read_file(base.out_dir + "/c.npy");
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c, read_file(other.out_dir + "/c.npy")) << policy_args;
}

}  // namespace

TEST(ProgramPolicies, EqualizerPerformanceInLockstep) {
  expect_same_result("--policy equalizer-perf --set gpu.controller_impl=lockstep");
}
TEST(ProgramPolicies, EqualizerEnergy) { expect_same_result("--policy equalizer-energy"); }
TEST(ProgramPolicies, DynCta) { expect_same_result("--policy dyncta"); }
TEST(ProgramPolicies, CoreShutdown) { expect_same_result("--policy core-shutdown"); }
TEST(ProgramPolicies, StaticCtasAndClocks) {
  expect_same_result("--policy static --set policy.ctas_per_sm=1 --set policy.sm_level=low");
}

// The RLC power-delivery network fed by a real kernel's instruction mix.
TEST(ProgramPolicies, RlcPdnOnARealKernel) {
  auto r = run_sim(cuda_workload("fma_loop"),
                   "--policy baseline --pdn " + gpupm::test::source_path("configs/pdn/package_default.json"), "pdn");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto& vn = r.report.at("voltage_noise");
  EXPECT_GT(vn.at("worst_droop").get<double>(), 0.0) << vn.dump();
}

// Two programs co-running on disjoint SM sets, each with its own memory.
TEST(ProgramPolicies, TwoProgramsCoRun) {
  const std::string dump = gpupm::test::temp_dir("corun");
  auto r = run_sim(cuda_workload("corun"), "--policy baseline --dump-buffers " + dump, "corun");
  ASSERT_EQ(r.status, 0) << r.output;
  ASSERT_EQ(r.report.at("apps").size(), 2u);
  EXPECT_EQ(read_file(dump + "/copy/dst.npy").size(), read_file(dump + "/copy/src.npy").size());
  EXPECT_EQ(read_file(dump + "/copy/dst.npy").substr(128), read_file(dump + "/copy/src.npy").substr(128));
  EXPECT_TRUE(std::filesystem::exists(dump + "/fma/out.npy"));
}
