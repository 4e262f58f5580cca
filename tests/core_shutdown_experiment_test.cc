// Core shut-down on the real platform (32-SM config): a bandwidth-bound kernel
// is searched, its surplus SMs are gated and energy falls at about the same
// performance; a compute-bound kernel is left alone; the static-point policy
// the oracle uses gates SMs from the start; the suite and experiment config
// validate. Each simulation is a child process (tests/support).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace gpupm::test {
namespace {

const char* kStream = R"({"name": "s", "kernels": [{"name": "s", "grid_ctas": 1024, "warps_per_cta": 4,
  "max_ctas_per_sm": 4, "insts_per_warp": 60, "mix": {"alu_per_mem": 3, "store_fraction": 0.2},
  "memory": {"lines_per_access": 4, "stream": 1.0}}]})";
const char* kCompute = R"({"name": "c", "kernels": [{"name": "c", "grid_ctas": 512, "warps_per_cta": 8,
  "max_ctas_per_sm": 4, "insts_per_warp": 300, "mix": {"alu_per_mem": 24, "dep_min": 2, "dep_max": 8},
  "memory": {"stream": 0.1, "global_reuse": 0.9, "global_set_bytes": 16384}}]})";

nlohmann::json run(const std::string& dir, const std::string& name, const char* workload, const std::string& args) {
  std::string wl = dir + "/" + name + ".json";
  std::ofstream(wl) << workload;
  std::string out = dir + "/" + name + "_" + std::to_string(std::hash<std::string>{}(args));
  std::string output;
  int st = run_gpupm("run --quiet --gpu " + source_path("configs/gpu/gtx480_32sm.json") + " --workload " + wl +
                         " --out " + out + " " + args,
                     &output);
  EXPECT_EQ(st, 0) << output;
  std::ifstream f(out + "/report.json");
  return st == 0 ? nlohmann::json::parse(f) : nlohmann::json();
}

double leak(const nlohmann::json& r) { return r["total"]["energy_j"]["by_component"]["sm_leakage"].get<double>(); }
double energy(const nlohmann::json& r) { return r["total"]["energy_j"]["total"].get<double>(); }
double time_s(const nlohmann::json& r) { return r["total"]["sim_time_s"].get<double>(); }

TEST(CoreShutdownPlatform, BandwidthBoundKernelIsSearchedGatedAndSavesEnergy) {
  std::string dir = temp_dir("cs_bw");
  auto base = run(dir, "s", kStream, "--policy baseline");
  auto cs = run(dir, "s", kStream, "--policy core-shutdown");
  ASSERT_TRUE(base.is_object() && cs.is_object());
  int steps = 0, settled = 0;
  for (const auto& e : cs["policy_trace"]) {
    steps += e["event"] == "step";
    if (e["event"] == "settle") settled = e["setting"].get<int>();
  }
  EXPECT_EQ(steps, 5);
  EXPECT_GT(settled, 1);
  EXPECT_LT(settled, 24);
  // Gated SMs leak nothing: SM leakage power falls at least in proportion to a
  // part of the gated SMs (the search and the tail run with all SMs powered).
  double leak_power_ratio = (leak(cs) / time_s(cs)) / (leak(base) / time_s(base));
  EXPECT_LT(leak_power_ratio, 0.9);
  EXPECT_LT(energy(cs), 0.95 * energy(base));
  EXPECT_LT(time_s(cs), 1.10 * time_s(base));
}

TEST(CoreShutdownPlatform, ComputeKernelUntouchedAndStaticPointGates) {
  std::string dir = temp_dir("cs_comp");
  auto base = run(dir, "c", kCompute, "--policy baseline");
  auto cs = run(dir, "c", kCompute, "--policy core-shutdown");
  auto half = run(dir, "c", kCompute, "--policy static-point --set policy.sms=16");
  ASSERT_TRUE(base.is_object() && cs.is_object() && half.is_object());
  for (const auto& e : cs["policy_trace"]) EXPECT_NE(e["event"], "search");
  EXPECT_NEAR(time_s(cs) / time_s(base), 1.0, 0.01);
  EXPECT_NEAR(energy(cs) / energy(base), 1.0, 0.01);
  // 16 of 32 SMs: a compute kernel takes about twice as long, SM leakage power halves.
  EXPECT_NEAR(time_s(half) / time_s(base), 2.0, 0.15);
  EXPECT_NEAR((leak(half) / time_s(half)) / (leak(base) / time_s(base)), 0.5, 0.02);
}

TEST(CoreShutdownPlatform, SuiteAndConfigValidate) {
  std::string out;
  std::string files = source_path("configs/gpu/gtx480_32sm.json");
  for (const char* a : {"path", "mst", "bfs", "sssp", "sp", "mum", "lib", "stencil", "hist", "kmean", "pvc"})
    files += " " + source_path(std::string("configs/workloads/core_shutdown/") + a + ".json");
  EXPECT_EQ(run_gpupm("validate " + files, &out), 0) << out;
  EXPECT_EQ(run_gpupm("experiment nonsense --out " + temp_dir("cs_bad"), &out), 2) << out;
}

// A two-program subset of the real suite end to end (a smaller oracle sweep
// than the shipped config's, to keep it short): each program's class is
// measured from its kernels' MBU and its static sweep, and the summary is the
// synthetic suite's with the measured classes.
TEST(CoreShutdownExperiment, RealProgramsSubset) {
  const std::string dir = temp_dir("cs_real"), out = dir + "/out";
  std::ofstream(dir + "/exp.json")
      << R"({"name": "core-shutdown", "suite": "real", "gpu": "configs/gpu/gtx480_32sm.json",
    "suite_dir": "configs/workloads/cuda/core_shutdown", "policy_params": {"alpha": 0.05},
    "oracles": [{"name": "oracle-sm", "objective": {"kind": "min_energy", "max_loss": 0.02},
                 "axes": {"sms": {"from": 8, "to": 32, "step": 8}}}],
    "classification": {"mbu_min": 0.5, "kernel_share_min": 0.05, "thrash_gain_min": 1.02, "phase_knee_span": 4,
                       "phase_min_windows": 2},
    "programs": [{"name": "pathfinder", "suite_dir": "configs/workloads/cuda/equalizer"}, {"name": "pvc"}]})";
  std::string log;
  ASSERT_EQ(run_gpupm("experiment core-shutdown --jobs 2 --config " + dir + "/exp.json --out " + out, &log), 0) << log;
  std::ifstream in(out + "/summary.json");
  const nlohmann::json s = nlohmann::json::parse(in);
  EXPECT_EQ(s["suite"], "real");
  for (const char* program : {"pathfinder", "pvc"}) {
    const auto& measured = s["programs"][program];
    const auto& app = s["apps"][program];
    EXPECT_EQ(app["class"], measured["class"]) << program;
    // MEM, MEM-COMP or COMP by the MBU rule, on the kernels that count.
    bool any_memory = false;
    for (const auto& k : measured["kernels"]) any_memory |= k["counted"].get<bool>() && k["mbu"].get<double>() > 0.5;
    EXPECT_EQ(app["memory_intensive"].get<bool>(), any_memory) << program;
    EXPECT_EQ(measured["class"].get<std::string>().rfind("COMP", 0) == 0, !any_memory) << program;
  }
  EXPECT_TRUE(s["programs"]["pvc"]["kernels"].contains("pvc_bitonic"));
  // pvc's bitonic steps last a few microseconds, shorter than the policy's two
  // sampling windows: their knees mark no phase (they did before the floor).
  EXPECT_EQ(s["programs"]["pvc"]["class"].get<std::string>().find("K-PHASE"), std::string::npos)
      << s["programs"]["pvc"];
  // Every claim has a verdict; n/a ones say why.
  EXPECT_GE(s["claims"].size(), 7u);
  for (const auto& c : s["claims"])
    if (c["verdict"] == "n/a") {
      EXPECT_FALSE(c["note"].get<std::string>().empty()) << c.dump();
    }
  std::ifstream md(out + "/summary.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("# Core shut-down on gpupm: real programs"), std::string::npos);
  EXPECT_NE(text.find("## Measured classes"), std::string::npos);
}

TEST(CoreShutdownExperiment, RealConfigRejectsAnUnknownProgramBeforeRunning) {
  const std::string dir = temp_dir("cs_real_bad");
  std::ofstream(dir + "/exp.json")
      << R"({"name": "core-shutdown", "suite": "real", "gpu": "configs/gpu/gtx480_32sm.json",
    "suite_dir": "configs/workloads/cuda/core_shutdown", "oracles": [{"name": "oracle-sm",
    "objective": {"kind": "min_energy", "max_loss": 0.02}, "axes": {"sms": [16, 32]}}],
    "classification": {"mbu_min": 0.5, "kernel_share_min": 0.05, "thrash_gain_min": 1.02, "phase_knee_span": 4,
                       "phase_min_windows": 2},
    "programs": [{"name": "nope"}]})";
  std::string log;
  EXPECT_EQ(run_gpupm("experiment core-shutdown --config " + dir + "/exp.json --out " + dir + "/out", &log), 2);
  EXPECT_NE(log.find("nope"), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/runs")) << log;
  // The shipped real config reads (every program compiled and checked), running nothing.
  EXPECT_EQ(run_gpupm("validate " + source_path("configs/experiments/core_shutdown_real.json"), &log), 0) << log;
}

}  // namespace
}  // namespace gpupm::test
