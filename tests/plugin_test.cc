// Policy plugins (docs/embedding.md#policy-plugins): a shared object built
// as a user builds one (tests/plugin/) is listed by `gpupm policies` and
// --help, runs under `gpupm run --plugin`, and reaches a sweep's child runs,
// whose fingerprints hold the plugin's content. The bad plugins are in
// tests/bad_input_catalogue_test.cc.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/report_runner.h"
#include "support/test_support.h"

namespace {

namespace fs = std::filesystem;
using gpupm::test::run_gpupm_argv;
using gpupm::test::test_plugin_path;

const std::string kPolicy = "plugin-sm-lowest";

TEST(Plugin, ListedByPoliciesAndHelp) {
  const std::string plugin = test_plugin_path("sm_lowest_plugin");
  gpupm::test::ProcessResult without = run_gpupm_argv({"policies"});
  ASSERT_EQ(without.status, 0) << without.err;
  EXPECT_NE(without.out.find("equalizer-perf "), std::string::npos) << without.out;
  EXPECT_EQ(without.out.find(kPolicy), std::string::npos) << without.out;

  gpupm::test::ProcessResult with = run_gpupm_argv({"policies", "--plugin", plugin});
  ASSERT_EQ(with.status, 0) << with.err;
  EXPECT_NE(with.out.find(kPolicy + "   test plugin: the SM domain at its lowest V/F level [plugin " + plugin + "]"),
            std::string::npos)
      << with.out;
  EXPECT_EQ(with.out.find("baseline"), 0u) << "the shipped policies first:\n" << with.out;

  gpupm::test::ProcessResult help = run_gpupm_argv({"run", "--help", "--plugin=" + plugin});
  EXPECT_EQ(help.status, 0) << help.err;
  EXPECT_NE(help.out.find("perf-aging, " + kPolicy), std::string::npos) << help.out;
}

TEST(Plugin, ItsPolicyRunsWithItsParameters) {
  gpupm::test::RunResult r =
      gpupm::test::run_sim("compute", "--plugin " + test_plugin_path("sm_lowest_plugin") + " --policy " + kPolicy +
                                          " --set policy.note=hello --set 'workload.kernels[0].grid_ctas=30'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.report["config"]["policy"], (nlohmann::json{{"name", kPolicy}, {"note", "hello"}}));
  EXPECT_EQ(r.report["total"]["vf_residency"]["sm"]["low"], 1.0);  // held at the lowest level from time 0
  EXPECT_EQ(r.report["policy_trace"]["kernels_started"], 1);
  // Without the plugin the name is unknown, and the message lists what is known.
  gpupm::test::RunResult bare = gpupm::test::run_sim("compute", "--policy " + kPolicy);
  EXPECT_EQ(bare.status, 2);
  EXPECT_NE(bare.output.find("unknown policy \"" + kPolicy + "\""), std::string::npos) << bare.output;
}

// The sweep passes --plugin to every child run; a changed plugin file makes its runs stale.
TEST(Plugin, SweepRunsLoadItAndFingerprintItsContent) {
  const std::string dir = gpupm::test::temp_dir("plugin_sweep");
  const std::string plugin = dir + "/libmine.so";
  fs::copy_file(test_plugin_path("sm_lowest_plugin"), plugin);
  const std::string spec = dir + "/spec.json";
  std::ofstream(spec) << R"({"name": "plugin", "base": {"gpu": ")"
                      << gpupm::test::source_path("configs/gpu/gtx480.json") << R"(", "workload": ")"
                      << gpupm::test::source_path("configs/workloads/compute.json")
                      << R"(", "set": ["workload.kernels[0].grid_ctas=30"]},
      "axes": [{"name": "policy", "policies": ["baseline", ")"
                      << kPolicy << R"("]}]})";
  auto sweep = [&] {
    return run_gpupm_argv({"sweep", spec, "--out", dir + "/out", "--jobs", "2", "--plugin", plugin});
  };

  gpupm::test::ProcessResult first = sweep();
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("2 runs (0 reused, 0 failed)"), std::string::npos) << first.out;
  const std::string csv = gpupm::test::read_file(dir + "/out/results.csv");
  EXPECT_NE(csv.find(kPolicy), std::string::npos) << csv;

  gpupm::test::ProcessResult again = sweep();
  EXPECT_NE(again.out.find("2 runs (2 reused, 0 failed)"), std::string::npos) << again.out << again.err;

  std::ofstream(plugin, std::ios::app) << "rebuilt";  // still loads: the ELF ignores trailing bytes
  gpupm::test::ProcessResult changed = sweep();
  ASSERT_EQ(changed.status, 0) << changed.out << changed.err;
  EXPECT_NE(changed.out.find("2 runs (0 reused, 0 failed)"), std::string::npos) << changed.out;
  EXPECT_NE(changed.err.find("an input file changed"), std::string::npos) << changed.err;
}

}  // namespace
