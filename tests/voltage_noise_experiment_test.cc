// `gpupm experiment voltage-noise` end to end on two suite kernels (a launch-heavy
// iterative one and a first-order one): every design runs, the summary has the
// Fig. 19/20 and package sections and a judged claims table, and the
// directions hold (global and hierarchical smoothing lower the worst case at a
// small cost, the guardband run saves SM energy).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

using gpupm::test::run_gpupm;
using gpupm::test::temp_dir;

TEST(VoltageNoiseExperiment, TwoKernelsEndToEnd) {
  const std::string out = temp_dir("vnexp");
  std::string log;
  ASSERT_EQ(run_gpupm("experiment voltage-noise --jobs 2 --only dct,kmn --out " + out, &log), 0) << log;
  for (const char* f : {"summary.json", "summary.md"}) EXPECT_TRUE(std::filesystem::exists(out + "/" + f)) << f;
  std::ifstream in(out + "/summary.json");
  const nlohmann::json s = nlohmann::json::parse(in);
  ASSERT_EQ(s["kernels"].size(), 2u);
  for (const char* k : {"dct", "kmn"}) {
    const auto& j = s["kernels"][k];
    EXPECT_GT(j["baseline"]["worst_droop"].get<double>(), 0.05) << k;
    EXPECT_LT(j["global"]["droop_ratio"].get<double>(), 0.9) << k;
    EXPECT_LT(j["hierarchical"]["droop_ratio"].get<double>(), 0.95) << k;
    EXPECT_LT(j["hierarchical"]["time_ratio"].get<double>(), 1.05) << k;
    EXPECT_GE(j["hierarchical"]["smoothing"]["global"]["triggers"].get<int>(), 1) << k;
    EXPECT_GT(j["local"]["smoothing"]["local"]["throttled_cycles"].get<int>(), 0) << k;
    EXPECT_LT(j["hierarchical-lowv"]["core_energy_ratio"].get<double>(), 0.99) << k;
  }
  EXPECT_LT(s["guardband"]["v_new"].get<double>(), s["guardband"]["v_nominal"].get<double>());
  EXPECT_EQ(s["packages"].size(), 3u);
  size_t judged = 0;
  for (const auto& c : s["claims"]) judged += c["verdict"] == "pass" || c["verdict"] == "fail";
  EXPECT_GE(judged, 8u);
  std::ifstream md(out + "/summary.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  for (const char* h : {"## Summary (Fig. 19)", "## Guardband and energy", "## Package sensitivity", "## Claims"})
    EXPECT_NE(text.find(h), std::string::npos) << h;
}
