// The controller blocks run as C++ models, as the Verilated RTL, or both in
// lockstep (GPU config "controller_impl"; rtl/README.md). Each test runs
// `gpupm run` in child processes:
//  - lockstep gives zero mismatches and the same report and epochs.csv, bit for
//    bit, as the cpp run (only the echoed gpu.controller_impl differs), under
//    both Equalizer modes, on runs whose Equalizer really acts (V/F steps and,
//    where the kernel asks for it, numBlocks changes);
//  - a fault injected into one RTL output bit (GPUPM_LOCKSTEP_FAULT, the
//    wrappers' test-only hook) is caught at that cycle with SM, signal,
//    expected and actual, exit status 1, nothing written;
//  - bad controller_impl values and unavailable RTL parameter sets exit 2.
// Built only with Verilator (rtl/rtl.cmake), ctest label `rtl`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/report_runner.h"
#include "support/test_support.h"

using gpupm::test::run_gpupm;
using gpupm::test::run_sim;
using gpupm::test::RunResult;
using gpupm::test::source_path;
using gpupm::test::temp_dir;

namespace {

std::string read(const std::string& path) { return gpupm::test::read_file(path); }

std::string eq_kernel(const std::string& name) { return source_path("configs/workloads/equalizer/" + name + ".json"); }

const char* const kPascal = "configs/gpu/pascal_60sm.json";  // 60 SMs, 64 warps per SM

RunResult run_impl(const std::string& workload, const std::string& policy, const std::string& impl,
                   const std::string& extra = "", const std::string& gpu = "configs/gpu/gtx480.json") {
  return run_sim(workload, "--policy " + policy + " --set gpu.controller_impl=" + impl + " " + extra, impl, gpu);
}

// What the Equalizer did in a run (from the report's policy trace).
struct Activity {
  size_t epochs = 0, vf_steps = 0, block_changes = 0;
};
Activity activity(const nlohmann::json& report) {
  Activity a;
  const nlohmann::json& tr = report.at("policy_trace");
  nlohmann::json last_blocks;
  for (const auto& e : tr) {
    ++a.epochs;
    const std::string act = e.at("action").get<std::string>();
    if (act == "step_target" || act == "restore_other") ++a.vf_steps;
    if (!last_blocks.is_null() && e.at("num_blocks") != last_blocks) ++a.block_changes;
    last_blocks = e.at("num_blocks");
  }
  return a;
}

// cpp and lockstep runs of one kernel and policy: both succeed and agree bit for bit.
Activity expect_lockstep_equals_cpp(const std::string& workload, const std::string& policy,
                                    const std::string& extra = "", const std::string& gpu = "configs/gpu/gtx480.json") {
  const RunResult cpp = run_impl(workload, policy, "cpp", extra, gpu);
  const RunResult ls = run_impl(workload, policy, "lockstep", extra, gpu);
  EXPECT_EQ(cpp.status, 0) << cpp.output;
  EXPECT_EQ(ls.status, 0) << ls.output;
  if (cpp.status != 0 || ls.status != 0) return {};
  EXPECT_EQ(cpp.output.find("mismatch"), std::string::npos);
  EXPECT_EQ(ls.output.find("mismatch"), std::string::npos) << ls.output;
  // The only difference: the echoed implementation.
  EXPECT_EQ(cpp.report["config"]["gpu"]["controller_impl"], "cpp");
  EXPECT_EQ(ls.report["config"]["gpu"]["controller_impl"], "lockstep");
  nlohmann::json a = cpp.report, b = ls.report;
  a["config"]["gpu"].erase("controller_impl");
  b["config"]["gpu"].erase("controller_impl");
  EXPECT_EQ(a.dump(2), b.dump(2)) << workload << " " << policy;
  // And as files: the raw report text differs in exactly that one line.
  std::string ra = read(cpp.out_dir + "/report.json"), rb = read(ls.out_dir + "/report.json");
  const std::string ka = "\"controller_impl\": \"cpp\"", kb = "\"controller_impl\": \"lockstep\"";
  EXPECT_NE(ra.find(ka), std::string::npos);
  EXPECT_NE(rb.find(kb), std::string::npos);
  if (ra.find(ka) != std::string::npos) ra.replace(ra.find(ka), ka.size(), kb);
  EXPECT_TRUE(ra == rb) << workload << " " << policy << ": report.json differs beyond controller_impl";
  EXPECT_TRUE(read(cpp.out_dir + "/epochs.csv") == read(ls.out_dir + "/epochs.csv")) << workload << " " << policy;
  if (!cpp.report.contains("policy_trace")) return {};
  return activity(cpp.report);
}

// The voltage-smoothing blocks (15 droop predictors, the stagger unit) in a run
// with the PDN on, both levels enabled.
nlohmann::json smoothing_lockstep(const std::string& kernel) {
  const std::string extra = "--pdn " + source_path("configs/pdn/package_default.json") +
                            " --set gpu.gwde.dispatch_interval_ns=1.4286 --set gpu.smoothing.local.enabled=true"
                            " --set gpu.smoothing.global.enabled=true";
  const std::string wl = source_path("configs/workloads/voltage_noise/" + kernel + ".json");
  expect_lockstep_equals_cpp(wl, "baseline", extra);
  const RunResult cpp = run_impl(wl, "baseline", "cpp", extra);
  return cpp.status == 0 ? cpp.report["voltage_noise"]["smoothing"] : nlohmann::json();
}

}  // namespace

// A compute kernel (SM boost in performance mode, memory down in energy mode)
// and a cache-sensitive one (Algorithm 1 pauses CTAs).
TEST(Lockstep, EqualizerModesMatchCppBitForBit) {
  const Activity perf = expect_lockstep_equals_cpp(eq_kernel("cutcp-1"), "equalizer-perf");
  const Activity energy = expect_lockstep_equals_cpp(eq_kernel("cutcp-1"), "equalizer-energy");
  EXPECT_GE(perf.epochs, 20u);
  EXPECT_GE(perf.vf_steps, 1u);
  EXPECT_GE(energy.vf_steps, 1u);
  const Activity cache = expect_lockstep_equals_cpp(eq_kernel("kmn-1"), "equalizer-perf");
  EXPECT_GE(cache.block_changes, 1u) << "kmn-1: Algorithm 1 should change numBlocks";
}

// The droop predictors throttle and the stagger unit triggers and holds SMs, and
// the RTL agrees with the C++ models on every edge (kmn: a kernel launch and
// dispatch bursts; ndl: nine launches of growing and shrinking grids).
TEST(Lockstep, SmoothingBlocksMatchCppBitForBit) {
  for (const char* k : {"kmn", "ndl"}) {
    const nlohmann::json s = smoothing_lockstep(k);
    ASSERT_FALSE(s.is_null()) << k;
    EXPECT_GE(s["global"]["triggers"].get<uint64_t>(), 1u) << k;
    EXPECT_GT(s["global"]["held_sm_cycles"].get<uint64_t>(), 0u) << k;
    EXPECT_GT(s["local"]["throttled_cycles"].get<uint64_t>(), 0u) << k;
  }
}

// The Pascal config (60 SMs, 64 warps per SM): its 60 Equalizer blocks (Veq_sm_block_w64) and the
// 60-vote arbiter (Vvote_arbiter_n60) under both modes, then its 60 droop predictors
// (Vdroop_predictor_s4: 4 schedulers) and the 60-SM stagger unit (Vstagger_unit_n60) with both
// smoothing levels on, the PDN on.
TEST(Lockstep, PascalEqualizerMatchesCppBitForBit) {
  const Activity perf = expect_lockstep_equals_cpp(eq_kernel("cutcp-1"), "equalizer-perf", "", kPascal);
  const Activity energy = expect_lockstep_equals_cpp(eq_kernel("kmn-1"), "equalizer-energy", "", kPascal);
  EXPECT_GE(perf.epochs, 1u);
  EXPECT_GE(energy.epochs, 1u);
  EXPECT_GE(perf.vf_steps, 1u);         // the compute kernel boosts the SMs
  EXPECT_GE(energy.vf_steps, 1u);       // the cache-sensitive one lowers a clock ...
  EXPECT_GE(energy.block_changes, 1u);  // ... and Algorithm 1 changes numBlocks
}

TEST(Lockstep, PascalSmoothingBlocksMatchCppBitForBit) {
  // The PDN on (the package's file names a 4 x 4 grid: Pascal's 60 SMs need its own 6 x 10).
  const std::string extra = "--pdn " + source_path("configs/pdn/package_default.json") +
                            " --set gpu.pdn.network.rows=6 --set gpu.pdn.network.cols=10"
                            " --set gpu.smoothing.local.enabled=true --set gpu.smoothing.global.enabled=true";
  const std::string wl = source_path("configs/workloads/voltage_noise/kmn.json");
  expect_lockstep_equals_cpp(wl, "baseline", extra, kPascal);
  const RunResult cpp = run_impl(wl, "baseline", "cpp", extra, kPascal);
  ASSERT_EQ(cpp.status, 0) << cpp.output;
  const nlohmann::json s = cpp.report["voltage_noise"]["smoothing"];
  ASSERT_FALSE(s.is_null()) << cpp.report.dump(1);
  EXPECT_GE(s["global"]["triggers"].get<uint64_t>(), 1u);
  EXPECT_GT(s["global"]["held_sm_cycles"].get<uint64_t>(), 0u);
}

// The RTL alone gives the same report too.
TEST(Lockstep, RtlImplMatchesCpp) {
  const RunResult cpp = run_impl(eq_kernel("cutcp-1"), "equalizer-energy", "cpp");
  const RunResult rtl = run_impl(eq_kernel("cutcp-1"), "equalizer-energy", "rtl");
  ASSERT_EQ(cpp.status, 0) << cpp.output;
  ASSERT_EQ(rtl.status, 0) << rtl.output;
  nlohmann::json a = cpp.report, b = rtl.report;
  a["config"]["gpu"].erase("controller_impl");
  b["config"]["gpu"].erase("controller_impl");
  EXPECT_EQ(a.dump(2), b.dump(2));
}

namespace {

// Runs lockstep with GPUPM_LOCKSTEP_FAULT set; checks exit 1, one report line
// naming block, SM, cycle and signal, actual = expected with `bit` flipped, and
// no outputs.
void expect_fault_caught(const std::string& fault, const std::string& block_and_sm, uint64_t cycle,
                         const std::string& signal, unsigned bit) {
  ::setenv("GPUPM_LOCKSTEP_FAULT", fault.c_str(), 1);
  const RunResult r = run_impl(eq_kernel("cutcp-1"), "equalizer-perf", "lockstep");
  const RunResult off = run_impl(eq_kernel("cutcp-1"), "equalizer-perf", "cpp");  // the hook is the RTL's
  ::unsetenv("GPUPM_LOCKSTEP_FAULT");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_FALSE(std::filesystem::exists(r.out_dir + "/report.json"));
  const std::regex re("gpupm: error: lockstep mismatch: " + block_and_sm + ", cycle " + std::to_string(cycle) +
                      ", signal " + signal + ": expected \\(C\\+\\+\\) ([0-9]+), actual \\(RTL\\) ([0-9]+);");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, re)) << r.output;
  EXPECT_EQ(std::stoull(m[1]) ^ (1ull << bit), std::stoull(m[2]));
  // One message: not repeated by SystemC's report handler.
  EXPECT_EQ(r.output.find("lockstep mismatch", m.position(0) + m.length(0)), std::string::npos) << r.output;
  EXPECT_EQ(off.status, 0) << off.output;
}

}  // namespace

TEST(Lockstep, InjectedFaultInAnSmBlockIsReported) {
  // Cycle 5000 is in the second epoch: vote_o holds the first epoch's vote.
  expect_fault_caught("eq_sm_block:3:5000:vote_o:0", "eq_sm_block SM 3", 5000, "vote_o", 0);
  // During cycles the C++ model skips in cpp mode (advance) the RTL is still compared.
  expect_fault_caught("eq_sm_block:14:77:sum_xalu_o:4", "eq_sm_block SM 14", 77, "sum_xalu_o", 4);
}

TEST(Lockstep, InjectedFaultInTheArbiterIsReported) {
  expect_fault_caught("vote_arbiter:0:6000:sm_level_o:1", "vote_arbiter", 6000, "sm_level_o", 1);
}

TEST(Lockstep, BadControllerImplExitsTwo) {
  const std::string out_dir = temp_dir("badimpl");
  std::string output;
  int status = run_gpupm("run --quiet --gpu " + source_path("configs/gpu/gtx480.json") + " --workload " +
                             source_path("configs/workloads/compute.json") +
                             " --policy equalizer-perf --set gpu.controller_impl=verilog --out " + out_dir,
                         &output);
  EXPECT_EQ(status, 2) << output;
  for (const char* f : {"gtx480.json", "controller_impl", "expected one of {cpp, rtl, lockstep}", "verilog"})
    EXPECT_NE(output.find(f), std::string::npos) << "missing '" << f << "' in: " << output;
  EXPECT_FALSE(std::filesystem::exists(out_dir + "/report.json"));

  // A value of the wrong type, from a GPU config file.
  std::string gpu = read(source_path("configs/gpu/gtx480.json"));
  const std::string key = "\"controller_impl\": \"cpp\"";
  ASSERT_NE(gpu.find(key), std::string::npos);
  gpu.replace(gpu.find(key), key.size(), "\"controller_impl\": 3");
  const std::string file = temp_dir("badimpl_file") + "/gpu.json";
  std::ofstream(file) << gpu;
  status = run_gpupm("run --quiet --gpu " + file + " --workload " + source_path("configs/workloads/compute.json") +
                         " --out " + out_dir,
                     &output);
  EXPECT_EQ(status, 2) << output;
  EXPECT_NE(output.find(file), std::string::npos) << output;
  EXPECT_NE(output.find("controller_impl"), std::string::npos) << output;
}

TEST(Lockstep, UnavailableRtlParametersExitTwo) {
  // No Verilated eq_sm_block with 64-cycle samples.
  RunResult r = run_impl(source_path("configs/workloads/compute.json"), "equalizer-perf", "rtl",
                         "--set policy.sample_period_log2=6");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("SAMPLE_LOG2=6"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("controller_impl"), std::string::npos) << r.output;
  // No Verilated vote_arbiter for 14 SMs.
  r = run_impl(source_path("configs/workloads/compute.json"), "equalizer-energy", "lockstep", "--set gpu.sm.count=14");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("N_SMS=14"), std::string::npos) << r.output;
  // The cpp implementation has no such limits.
  r = run_impl(source_path("configs/workloads/compute.json"), "equalizer-energy", "cpp",
               "--set policy.sample_period_log2=6");
  EXPECT_EQ(r.status, 0) << r.output;
}

// The CI subset of the 27-kernel experiment in lockstep: a memory kernel and an
// unsaturated one under both modes, plus the CTA-control-only run of a cache
// kernel (the full experiment: rtl/README.md).
TEST(LockstepSuite, EqualizerSubsetMatchesCpp) {
  for (const char* k : {"lbm-1", "bp-1"}) {
    expect_lockstep_equals_cpp(eq_kernel(k), "equalizer-perf");
    expect_lockstep_equals_cpp(eq_kernel(k), "equalizer-energy");
  }
  const Activity a = [] {
    const RunResult cpp = run_impl(eq_kernel("bfs-1"), "equalizer-perf", "cpp", "--set policy.dvfs=false");
    const RunResult ls = run_impl(eq_kernel("bfs-1"), "equalizer-perf", "lockstep", "--set policy.dvfs=false");
    EXPECT_EQ(cpp.status, 0) << cpp.output;
    EXPECT_EQ(ls.status, 0) << ls.output;
    if (cpp.status || ls.status) return Activity{};
    nlohmann::json x = cpp.report, y = ls.report;
    x["config"]["gpu"].erase("controller_impl");
    y["config"]["gpu"].erase("controller_impl");
    EXPECT_EQ(x.dump(2), y.dump(2));
    return activity(cpp.report);
  }();
  EXPECT_GE(a.epochs, 1u);
}
