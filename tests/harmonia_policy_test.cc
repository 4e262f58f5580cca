// Harmonia on the platform (HD7970-like config), each simulation a child
// `gpupm run`: a compute-bound kernel ends at a low memory clock without
// slowing down, a streaming kernel keeps the top memory clock while its CU
// count comes down, core DVFS only never touches the CU count or the memory
// clock; the "iterations" workload form interleaves the kernels of an
// iterative application; the suite and the experiment config validate, and a
// bad bin table is bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "support/report_runner.h"
#include "support/test_support.h"
#include "gpupm/common/json_reader.h"
#include "gpupm/workload/kernel_profile.h"

namespace gpupm::test {
namespace {

// Short iterated kernels (~5-10 us each on 32 CUs).
const char* kCompute = R"({"name": "c", "iterations": 7, "kernels": [{"name": "c", "grid_ctas": 384, "warps_per_cta": 4,
  "max_ctas_per_sm": 6, "insts_per_warp": 200, "vgprs": 40, "sgprs": 16,
  "mix": {"alu_per_mem": 60, "dep_min": 1, "dep_max": 3},
  "memory": {"stream": 0.02, "global_reuse": 0.98, "global_set_bytes": 4096}}]})";
const char* kStream = R"({"name": "s", "iterations": 5, "kernels": [{"name": "s", "grid_ctas": 160, "warps_per_cta": 4,
  "max_ctas_per_sm": 6, "insts_per_warp": 32, "vgprs": 16, "sgprs": 16,
  "mix": {"alu_per_mem": 3, "mem_burst": 2, "dep_min": 2, "dep_max": 6, "store_fraction": 0.2},
  "memory": {"lines_per_access": 4, "stream": 1.0}}]})";

// The report of `gpupm run` on the HD7970-like GPU with `workload` (JSON text).
nlohmann::json run(const std::string& dir, const std::string& name, const char* workload, const std::string& args) {
  std::string wl = dir + "/" + name + ".json";
  std::ofstream(wl) << workload;
  RunResult r = run_sim(wl, args, "harmonia", "configs/gpu/hd7970_like.json");
  EXPECT_EQ(r.status, 0) << r.output;
  return r.report;
}

double energy(const nlohmann::json& r) { return r["total"]["energy_j"]["total"].get<double>(); }

TEST(HarmoniaPlatform, ComputeKernelEndsAtALowMemoryClockWithoutSlowingDown) {
  std::string dir = temp_dir("harmonia_comp");
  auto base = run(dir, "c", kCompute, "--policy baseline");
  auto h = run(dir, "c", kCompute, "--policy harmonia");
  ASSERT_TRUE(base.is_object() && h.is_object());
  const auto& tr = h["policy_trace"];
  ASSERT_EQ(tr.size(), 7u);
  EXPECT_EQ(tr[0]["event"], "warmup");  // the first invocation is watched only
  EXPECT_EQ(tr[1]["event"], "cg");
  EXPECT_EQ(tr[1]["comp_bin"], "HIGH");
  EXPECT_EQ(tr[1]["bw_bin"], "LOW");
  for (size_t i = 2; i < tr.size(); ++i) {  // CG's memory clock (925 MHz), then FG steps down
    EXPECT_LE(tr[i]["ran"]["mem_mhz"].get<double>(), 925.0) << i;
    EXPECT_EQ(tr[i]["ran"]["cus"].get<double>(), 32.0) << i;
    EXPECT_EQ(tr[i]["ran"]["sm_mhz"].get<double>(), 1000.0) << i;
  }
  // Down to 475 MHz, where the one streamed load in 50 makes it 2-3% slower: back to 625.
  EXPECT_LE(tr[tr.size() - 1]["ran"]["mem_mhz"].get<double>(), 625.0);
  EXPECT_LT(sim_time(h), 1.03 * sim_time(base));
  EXPECT_LT(energy(h), 0.97 * energy(base));
}

TEST(HarmoniaPlatform, StreamingKernelKeepsTheTopMemoryClockAndSheddsCompute) {
  std::string dir = temp_dir("harmonia_stream");
  auto base = run(dir, "s", kStream, "--policy baseline");
  auto h = run(dir, "s", kStream, "--policy harmonia");
  ASSERT_TRUE(base.is_object() && h.is_object());
  const auto& tr = h["policy_trace"];
  ASSERT_EQ(tr.size(), 5u);
  EXPECT_EQ(tr[0]["bw_bin"], "HIGH");
  double min_cus = 32;
  for (const auto& e : tr) {
    EXPECT_EQ(e["ran"]["mem_mhz"].get<double>(), 1375.0);
    min_cus = std::min(min_cus, e["ran"]["cus"].get<double>());
  }
  EXPECT_LE(min_cus, 16.0);
  EXPECT_LT(energy(h), energy(base));
  EXPECT_LT(sim_time(h), 1.25 * sim_time(base));  // includes the FG probes below the knee
}

TEST(HarmoniaPlatform, CoreDvfsOnlyLeavesCusAndMemoryAlone) {
  std::string dir = temp_dir("harmonia_dvfs");
  auto h = run(dir, "s", kStream, "--policy harmonia --set 'policy.tunables=[\"sm_mhz\"]'");
  ASSERT_TRUE(h.is_object());
  bool lowered = false;
  for (const auto& e : h["policy_trace"]) {
    EXPECT_EQ(e["ran"]["cus"].get<double>(), 32.0);
    EXPECT_EQ(e["ran"]["mem_mhz"].get<double>(), 1375.0);
    lowered |= e["ran"]["sm_mhz"].get<double>() < 1000.0;
  }
  EXPECT_TRUE(lowered);
}

TEST(HarmoniaWorkload, IterationsInterleaveTheKernels) {
  nlohmann::json doc = nlohmann::json::parse(R"({"name": "w", "iterations": 3, "kernels": [
    {"name": "a", "grid_ctas": 1, "warps_per_cta": 1, "max_ctas_per_sm": 1, "insts_per_warp": 10},
    {"name": "b", "grid_ctas": 2, "warps_per_cta": 1, "max_ctas_per_sm": 1, "insts_per_warp": 10,
     "launches": [{}, {"grid_ctas": 4}, {}]}]})");
  Workload w = parse_workload(doc, "w.json", 1);
  ASSERT_EQ(w.launches.size(), 6u);
  std::string order;
  for (const auto& l : w.launches) order += l->name + std::to_string(l->launch) + " ";
  EXPECT_EQ(order, "a0 b0 a1 b1 a2 b2 ");
  EXPECT_EQ(w.launches[3]->grid_ctas, 4u);
  EXPECT_EQ(w.launches[1]->kernel_index, w.launches[5]->kernel_index);
  doc["kernels"][0]["repeat"] = 1u;  // a one-off kernel: the first iteration only
  Workload once = parse_workload(doc, "w.json", 1);
  order.clear();
  for (const auto& l : once.launches) order += l->name + std::to_string(l->launch) + " ";
  EXPECT_EQ(order, "a0 b0 b1 b2 ");
  doc["kernels"][1]["launches"].erase(2);  // 2 launches against 3 iterations
  EXPECT_THROW(parse_workload(doc, "w.json", 1), InputError);
}

TEST(HarmoniaPlatform, SuiteAndConfigsValidateAndABadTableIsBadInput) {
  std::string out;
  std::string files = source_path("configs/gpu/hd7970_like.json");
  for (const char* a : {"maxflops", "devmem", "lud", "sort", "spmv", "bpt", "cfd", "xsbench", "comd", "graph500"})
    files += " " + source_path(std::string("configs/workloads/harmonia/") + a + ".json");
  EXPECT_EQ(run_gpupm("validate " + files, &out), 0) << out;
  std::string dir = temp_dir("harmonia_bad");
  std::string wl = dir + "/c.json";
  std::ofstream(wl) << kCompute;
  int st = run_gpupm("run --quiet --gpu " + source_path("configs/gpu/hd7970_like.json") + " --workload " + wl +
                         " --out " + dir + "/o --policy harmonia --set 'policy.cg_mem_mhz=[475,900,1375]'",
                     &out);
  EXPECT_EQ(st, 2) << out;
  EXPECT_NE(out.find("policy.cg_mem_mhz[1]"), std::string::npos) << out;
  EXPECT_NE(out.find("1225"), std::string::npos) << out;  // lists the allowed values
  st = run_gpupm("experiment harmonia --out " + dir + "/x --only nosuchapp", &out);
  EXPECT_EQ(st, 2) << out;
}

}  // namespace
}  // namespace gpupm::test
