// `gpupm experiment voltage-noise --suite real` end to end on two programs of
// the shipped real config (dct8x8 of the voltage-noise suite, kmeans shared
// from the Equalizer suite's folder): every design, package and the lowered
// supply run on the whole programs, each program's droop class is measured,
// and the summary has the synthetic suite's sections and claims. A bad program
// name fails before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

using gpupm::test::run_gpupm;
using gpupm::test::temp_dir;

TEST(VoltageNoiseRealExperiment, TwoProgramsEndToEnd) {
  const std::string out = temp_dir("vnreal");
  std::string log;
  ASSERT_EQ(run_gpupm("experiment voltage-noise --suite real --jobs 2 --only dct8x8,kmeans --out " + out, &log), 0)
      << log;
  std::ifstream in(out + "/summary.json");
  const nlohmann::json s = nlohmann::json::parse(in);
  EXPECT_EQ(s["suite"], "real");
  ASSERT_EQ(s["kernels"].size(), 2u);
  for (const char* p : {"dct8x8", "kmeans"}) {
    const auto& j = s["kernels"][p];
    EXPECT_GT(j["baseline"]["worst_droop"].get<double>(), 0.0) << p;
    EXPECT_NE(j["measured_class"], "-") << p;  // measured from the baseline's droops
    EXPECT_GT(j["hierarchical"]["time_ratio"].get<double>(), 0.0) << p;
    EXPECT_TRUE(j.contains("hierarchical-lowv")) << p;
  }
  EXPECT_EQ(s["kernels"]["kmeans"]["paper_class"], "first_order");
  EXPECT_EQ(s["packages"].size(), 3u);
  EXPECT_GE(s["claims"].size(), 12u);
  const std::string md = gpupm::test::read_file(out + "/summary.md");
  for (const char* h : {"# Voltage noise on gpupm: real programs", "## Summary (Fig. 19)", "## Claims"})
    EXPECT_NE(md.find(h), std::string::npos) << h;
}

TEST(VoltageNoiseRealExperiment, UnknownProgramFailsBeforeRunning) {
  const std::string dir = temp_dir("vnrealbad");
  std::ofstream(dir + "/vn.json") << R"({"name": "voltage-noise", "suite": "real", "gpu": "configs/gpu/gtx480.json",
    "suite_dir": "configs/workloads/cuda/voltage_noise", "pdn": "configs/pdn/package_default.json",
    "packages": [], "programs": [{"name": "nn"}, {"name": "no_such_program"}]})";
  std::string log;
  EXPECT_EQ(run_gpupm("experiment voltage-noise --config " + dir + "/vn.json --out " + dir + "/out", &log), 2) << log;
  EXPECT_NE(log.find("no_such_program"), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/runs")) << log;
}
