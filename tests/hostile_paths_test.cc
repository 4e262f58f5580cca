// Output paths holding shell syntax are data, never commands: the plot step
// of `gpupm impedance` (the same helper as every experiment's,
// sc_model/experiment/plot_script.h) gets the directory verbatim, and its output says
// truthfully whether the plot was drawn.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/test_support.h"

namespace fs = std::filesystem;

namespace {

void expect_path_is_data(const std::string& name) {
  const std::string base = gpupm::test::temp_dir("hostile");
  const std::string out = base + "/" + name;
  auto r = gpupm::test::run_gpupm_argv(
      {"impedance", "--gpu", gpupm::test::source_path("configs/gpu/gtx480.json"), "--out", out});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(fs::is_regular_file(out + "/impedance.csv")) << "outputs not in the directory named " << out;
  for (const auto& e : fs::directory_iterator(base))
    EXPECT_EQ(e.path().filename().string(), name) << "something else appeared: the path was executed";
  for (const char* made : {"INJECTED", "INJECTED2"})  // a shell would have run touch in our working directory
    EXPECT_FALSE(fs::exists(made)) << made << " created in " << fs::current_path();
  const bool drawn = fs::is_regular_file(out + "/impedance.png");
  EXPECT_EQ(r.out.find("impedance.png") != std::string::npos, drawn) << r.out;
  if (!drawn) {
    EXPECT_NE(r.err.find("plot not drawn"), std::string::npos) << r.err;
  }
}

}  // namespace

TEST(HostilePaths, Semicolon) { expect_path_is_data("x;touch INJECTED;y"); }
TEST(HostilePaths, Space) { expect_path_is_data("with space"); }
TEST(HostilePaths, Quotes) { expect_path_is_data("q'uo\"te"); }
TEST(HostilePaths, CommandSubstitution) { expect_path_is_data("$(touch INJECTED)`touch INJECTED2`"); }
