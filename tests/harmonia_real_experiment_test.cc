// `gpupm experiment harmonia --suite real` end to end on two programs of
// configs/workloads/cuda/harmonia/ over a small grid (the shipped config's
// axes cut to two values each, keeping the top, so the test stays short):
// every kernel's sensitivity bins are measured, each program's class follows
// from them, and the summary has the same tables and claims as the synthetic
// suite's. A bad program name fails before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

using gpupm::test::run_gpupm;
using gpupm::test::temp_dir;

namespace {

// The shipped real config's settings with a 2 x 2 x 2 grid, no core sweep and PROGRAMS.
std::string write_config(const std::string& dir, const std::string& programs) {
  const std::string file = dir + "/harmonia_real.json";
  std::ofstream(file) << R"({"name": "harmonia", "suite": "real", "gpu": "configs/gpu/hd7970_like.json",
    "suite_dir": "configs/workloads/cuda/harmonia",
    "policy_params": {"cg_cus": [16, 24, 32], "cg_sm_mhz": [1000, 1000, 1000], "cg_mem_mhz": [925, 1225, 1375],
                      "fg_tolerance": 0.02, "max_dither": 3, "warmup": 1},
    "variants": [{"name": "harmonia"}, {"name": "cg-only", "params": {"mode": "cg"}},
                 {"name": "core-dvfs-only", "params": {"tunables": ["sm_mhz"]}}],
    "oracle": {"name": "oracle", "objective": {"kind": "min_ed2p"},
               "axes": {"sms": [16, 32], "sm_level": ["f700", "f1000"], "mem_level": ["m925", "m1375"]}},
    "classification": {"thrash_gain_min": 1.02},
    "stress_apps": ["maxflops", "device_memory"],
    "programs": [)" + programs +
                             "]}";
  return file;
}

}  // namespace

TEST(HarmoniaRealExperiment, TwoProgramsEndToEnd) {
  const std::string dir = temp_dir("hreal");
  std::string log;
  const std::string config = write_config(dir, R"({"name": "maxflops"}, {"name": "device_memory"})");
  ASSERT_EQ(run_gpupm("experiment harmonia --jobs 2 --config " + config + " --out " + dir + "/out", &log), 0) << log;
  std::ifstream in(dir + "/out/summary.json");
  const nlohmann::json s = nlohmann::json::parse(in);
  EXPECT_EQ(s["suite"], "real");
  // MaxFlops' FMA chains: compute-bound by the predictor and by the grid; DeviceMemory's streams: bandwidth-bound.
  const auto& madd = s["programs"]["maxflops"]["kernels"]["madd"];
  EXPECT_EQ(madd["predicted"]["comp_bin"], "HIGH") << madd.dump();
  EXPECT_GT(madd["grid"]["comp"].get<double>(), 0.7) << madd.dump();
  EXPECT_LT(madd["grid"]["bw"].get<double>(), 0.3) << madd.dump();
  const auto& read = s["programs"]["device_memory"]["kernels"]["read_coalesced"];
  EXPECT_GT(read["grid"]["bw"].get<double>(), read["grid"]["comp"].get<double>()) << read.dump();
  for (const char* p : {"maxflops", "device_memory"}) {
    EXPECT_EQ(s["apps"][p]["class"], s["programs"][p]["class"]) << p;  // the claims read the measured class
    EXPECT_GT(s["apps"][p]["harmonia"]["ed2p"].get<double>(), 0.0) << p;
    EXPECT_LE(s["apps"][p]["oracle"]["ed2p"].get<double>(), s["apps"][p]["static-oracle"]["ed2p"].get<double>() + 1e-9)
        << p;
  }
  EXPECT_GE(s["claims"].size(), 8u);
  const std::string md = gpupm::test::read_file(dir + "/out/summary.md");
  for (const char* h : {"# Harmonia on gpupm: real programs", "## Measured categories", "## Claims"})
    EXPECT_NE(md.find(h), std::string::npos) << h;
}

TEST(HarmoniaRealExperiment, UnknownProgramFailsBeforeRunning) {
  const std::string dir = temp_dir("hrealbad");
  std::string log;
  const std::string config = write_config(dir, R"({"name": "maxflops"}, {"name": "no_such_program"})");
  EXPECT_EQ(run_gpupm("experiment harmonia --config " + config + " --out " + dir + "/out", &log), 2) << log;
  EXPECT_NE(log.find("no_such_program"), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/runs")) << log;
  // A class is measured, never given.
  const std::string given = write_config(dir, R"({"name": "maxflops", "class": "H-COMP"})");
  EXPECT_EQ(run_gpupm("experiment harmonia --config " + given + " --out " + dir + "/out", &log), 2) << log;
  EXPECT_NE(log.find("class"), std::string::npos) << log;
  EXPECT_EQ(run_gpupm("experiment harmonia --suite real --only nosuchprogram --out " + dir + "/out", &log), 2) << log;
}
