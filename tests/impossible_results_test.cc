// A result no physical chip could give is refused, not reported: a PDN scaled
// to the top of its range (pdn.network.scale 1000) droops by far more than the
// supply on the compute kernel; the run fails (exit 1) and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/test_support.h"

using gpupm::test::source_path;

TEST(ImpossibleResults, DroopBeyondTheSupplyFailsTheRunAndWritesNothing) {
  const std::string out = gpupm::test::temp_dir("droop") + "/out";
  auto r = gpupm::test::run_gpupm_argv({"run", "--quiet", "--gpu", source_path("configs/gpu/gtx480.json"), "--workload",
                                        source_path("configs/workloads/compute.json"), "--pdn",
                                        source_path("configs/pdn/package_default.json"), "--set",
                                        "gpu.pdn.network.scale=1000", "--out", out});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  for (const char* fragment : {"worst droop", "exceeds 100%", "physically impossible", "pdn.network.scale 1000"})
    EXPECT_NE(r.err.find(fragment), std::string::npos) << fragment << " missing in:\n" << r.err;
  EXPECT_FALSE(std::filesystem::exists(out + "/report.json"));
  EXPECT_FALSE(std::filesystem::exists(out + "/epochs.csv"));
}
