// The command line as a user meets it: outputs, determinism, and every kind of
// bad input giving one clear message and exit status 2, with nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/report_runner.h"
#include "support/test_support.h"

using gpupm::test::binary_path;
using gpupm::test::read_file;
using gpupm::test::run_gpupm;
using gpupm::test::run_sim;
using gpupm::test::source_path;
using gpupm::test::temp_dir;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = temp_dir("cli") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// Runs with a bad input and checks: exit 2, each fragment in the message, no report.
void expect_bad_input(const std::string& args, std::vector<std::string> fragments) {
  std::string out_dir = temp_dir("bad");
  std::string output;
  int status = run_gpupm(args + " --out " + out_dir, &output);
  EXPECT_EQ(status, 2) << output;
  for (const auto& f : fragments)
    EXPECT_NE(output.find(f), std::string::npos) << "missing '" << f << "' in: " << output;
  EXPECT_FALSE(std::filesystem::exists(out_dir + "/report.json"));
}

std::string wl(const std::string& n) { return source_path("configs/workloads/" + n + ".json"); }
std::string run_args(const std::string& g, const std::string& w) {
  return "run --quiet --gpu " + g + " --workload " + w;
}

}  // namespace

TEST(Cli, RunWritesReportAndEpochs) {
  auto r = run_sim("compute");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("TOTAL"), std::string::npos);
  const auto& t = r.report["total"];
  for (const char* key :
       {"sim_time_s", "cycles", "instructions", "ipc", "energy_j", "edp_js", "ed2p_js2", "vf_residency",
        "mean_ctas_per_sm", "warp_states", "l1_hit_rate", "l2_hit_rate", "dram_bandwidth_utilisation"})
    EXPECT_TRUE(t.contains(key)) << key;
  EXPECT_EQ(r.report["kernels"].size(), 1u);
  EXPECT_EQ(t["instructions"].get<uint64_t>(), 180u * 8u * 2000u);
  std::string csv = read_file(r.out_dir + "/epochs.csv");
  size_t rows = size_t(std::count(csv.begin(), csv.end(), '\n'));
  uint64_t sm_cycles = t["cycles"]["sm"].get<uint64_t>();
  EXPECT_EQ(rows, 1 + sm_cycles / 4096);  // header + one row per full 4096-cycle epoch
  EXPECT_NEAR(t["vf_residency"]["sm"]["normal"].get<double>(), 1.0, 1e-9);
}

// The paired benchmark of a binary against itself: one row per program with
// the same simulated cycles and instructions from both, and a speed-up.
TEST(Cli, BenchPairedRunsBothBinariesOnTheRealSuite) {
  std::string out;
  int status = run_gpupm("bench --real-suite --programs harmonia/graph500 --against " + binary_path(), &out);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("speedup"), std::string::npos) << out;
  EXPECT_NE(out.find("harmonia/graph500"), std::string::npos) << out;
  EXPECT_EQ(out.find("differ"), std::string::npos) << out;
}

TEST(Cli, ReportMatchesItsSchema) {
  auto r = run_sim("demo");
  ASSERT_EQ(r.status, 0) << r.output;
  std::string why;
  EXPECT_TRUE(gpupm::test::report_matches_schema(r.out_dir + "/report.json", &why)) << why;
}

TEST(Cli, SameSeedSameBitsOtherSeedOtherBits) {
  auto a = run_sim("demo", "--seed 7");
  auto b = run_sim("demo", "--seed 7");
  auto c = run_sim("demo", "--seed 8");
  ASSERT_EQ(a.status, 0);
  ASSERT_EQ(b.status, 0);
  ASSERT_EQ(c.status, 0);
  EXPECT_EQ(read_file(a.out_dir + "/report.json"), read_file(b.out_dir + "/report.json"));
  EXPECT_EQ(read_file(a.out_dir + "/epochs.csv"), read_file(b.out_dir + "/epochs.csv"));
  EXPECT_NE(read_file(a.out_dir + "/epochs.csv"), read_file(c.out_dir + "/epochs.csv"));
}

TEST(Cli, ValidateAcceptsShippedConfigs) {
  std::string gpus;  // every shipped GPU config (Pascal's and the GCN-like one too)
  for (const auto& f : std::filesystem::directory_iterator(source_path("configs/gpu")))
    if (f.path().extension() == ".json") gpus += " " + f.path().string();
  std::string output;
  EXPECT_EQ(run_gpupm("validate" + gpus + " " + wl("demo") + " " + wl("compute") + " " + wl("streaming") + " " +
                          wl("cache_sensitive") + " " + wl("unsaturated"),
                      &output),
            0)
      << output;
  EXPECT_NE(output.find("pascal_60sm.json: ok (gpu)"), std::string::npos) << output;
}

TEST(Cli, ValidateRejectsBadFileWithStatus2) {
  std::string f = write_temp("bad.json", "{\"name\": \"x\", \"kernels\": [ {\"name\": 3} ]}");
  std::string output;
  EXPECT_EQ(run_gpupm("validate " + f, &output), 2);
  EXPECT_NE(output.find("kernels[0].name"), std::string::npos) << output;
}

TEST(BadInput, MalformedJsonGivesLineAndColumn) {
  std::string f = write_temp("broken.json", "{\n  \"name\": \"x\",\n  \"kernels\": [,]\n}\n");
  expect_bad_input(run_args(gpupm::test::gtx480_config(), f), {"broken.json", "line 3, column 15"});
}

TEST(BadInput, UnknownKey) {
  expect_bad_input(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --set gpu.sm.cuont=3",
                   {"gtx480.json", "sm.cuont", "unknown key"});
}

TEST(BadInput, WrongType) {
  expect_bad_input(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --set gpu.sm.count=\\\"many\\\"",
                   {"sm.count", "expected an integer"});
}

TEST(BadInput, StaticPointWithMoreSmsThanTheGpu) {
  expect_bad_input(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --policy static-point --set policy.sms=20",
                   {"policy.sms", "[0, 15]"});
}

TEST(BadInput, ZeroSms) {
  expect_bad_input(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --set gpu.sm.count=0",
                   {"sm.count", "[1, 1024]"});
}

TEST(BadInput, NegativeLatency) {
  expect_bad_input(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --set gpu.memory.l2_latency=-5",
                   {"memory.l2_latency"});
}

TEST(BadInput, CtaLargerThanSm) {
  expect_bad_input(
      run_args(gpupm::test::gtx480_config(), wl("compute")) + " --set workload.kernels[0].warps_per_cta=56",
      {"kernels[0].warps_per_cta", "at most 48"});
}

TEST(BadInput, MissingVfLevel) {
  expect_bad_input(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --set gpu.dvfs.sm.nominal=\\\"turbo\\\"",
                   {"dvfs.sm.nominal", "turbo"});
  expect_bad_input(run_args(gpupm::test::gtx480_config(), wl("compute")) +
                       " --policy sm-high --set gpu.dvfs.sm.levels[2].name=\\\"boost\\\"",
                   {"sm_level", "high"});
}

TEST(BadInput, UnknownPolicy) {
  expect_bad_input(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --policy turbo",
                   {"unknown policy", "baseline"});
}

TEST(BadInput, UnreadableInput) {
  expect_bad_input(run_args("/nonexistent/gpu.json", wl("compute")), {"/nonexistent/gpu.json", "cannot open"});
}

TEST(BadInput, UnwritableOutput) {
  std::string output;
  std::string file = write_temp("plain_file", "x");
  EXPECT_EQ(run_gpupm(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --out " + file + "/sub", &output), 2);
  EXPECT_NE(output.find("--out: " + file + "/sub: a part of the path is a file"), std::string::npos) << output;
}

TEST(Cli, FailedSimulationWritesNothing) {
  std::string out_dir = temp_dir("guard");
  std::string output;
  EXPECT_EQ(run_gpupm(run_args(gpupm::test::gtx480_config(), wl("compute")) + " --set gpu.sim.max_sim_ms=0.001 --out " +
                          out_dir,
                      &output),
            1);
  EXPECT_NE(output.find("max_sim_ms"), std::string::npos) << output;
  EXPECT_FALSE(std::filesystem::exists(out_dir + "/report.json"));
  EXPECT_FALSE(std::filesystem::exists(out_dir + "/epochs.csv"));
}

TEST(Cli, VcdTraceIsWritten) {
  std::string dir = temp_dir("vcd");
  auto r = run_sim("compute", "--vcd " + dir + "/trace.vcd");
  ASSERT_EQ(r.status, 0) << r.output;
  std::string vcd = read_file(dir + "/trace.vcd");
  EXPECT_NE(vcd.find("$scope module sm0 $end"), std::string::npos);  // the hierarchy: tests/trace_test.cc
  EXPECT_NE(vcd.find("v_sm"), std::string::npos);
  EXPECT_GT(vcd.size(), 10000u);
}
