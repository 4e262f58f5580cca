// A small SM allocation experiment end to end (two applications, one queue,
// a 12-SM copy of the 60-SM config so the profiles step is 1 SM) through
// `gpupm experiment sm-allocation`: profiles, classes, the partition of the
// pair, the summary and its resume; and bad experiment input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "gpupm/common/json_reader.h"
#include "support/test_support.h"

using gpupm::test::run_gpupm;
using gpupm::test::source_path;
using gpupm::test::temp_dir;
using nlohmann::json;

namespace {

std::string small_setup(const std::string& queue_apps) {
  std::string dir = temp_dir("smaexp");
  json gpu = gpupm::load_json_file(source_path("configs/gpu/gtx480_60sm.json"));
  gpu["sm"]["count"] = 12;
  gpu["pdn"]["network"] = {{"rows", 3}, {"cols", 4}};
  std::ofstream(dir + "/gpu.json") << gpu.dump();
  std::ofstream(dir + "/c.json") << R"({"name": "c", "kernels": [{"name": "c", "grid_ctas": 48, "warps_per_cta": 4,
    "max_ctas_per_sm": 4, "insts_per_warp": 300, "mix": {"alu_per_mem": 24, "dep_min": 2, "dep_max": 8},
    "memory": {"stream": 0.02, "global_reuse": 0.98, "global_set_bytes": 4096}}]})";
  std::ofstream(dir + "/s.json") << R"({"name": "s", "kernels": [{"name": "s", "grid_ctas": 48, "warps_per_cta": 4,
    "max_ctas_per_sm": 4, "insts_per_warp": 60, "mix": {"alu_per_mem": 3, "store_fraction": 0.2, "mem_burst": 2},
    "memory": {"lines_per_access": 4, "stream": 1.0}}]})";
  std::ofstream(dir + "/exp.json") << R"({"name": "sm-allocation", "gpu": ")" << dir << R"(/gpu.json", "suite_dir": ")"
                                   << dir << R"(", "apps": [{"name": "c", "class": "A"}, {"name": "s", "class": "M"}],
    "queues": [{"name": "Q", "apps": )"
                                   << queue_apps << "}]}";
  return dir;
}

TEST(SmAllocationExperiment, SmallQueueEndToEnd) {
  std::string dir = small_setup(R"(["c", "s", "s", "c"])");
  std::string out = temp_dir("smaexp_out"), log;
  ASSERT_EQ(run_gpupm("experiment sm-allocation --jobs 2 --config " + dir + "/exp.json --out " + out, &log), 0) << log;
  std::ifstream in(out + "/summary.json");
  json s = json::parse(in);
  EXPECT_EQ(s["sms"], 12);
  EXPECT_EQ(s["step"], 1);
  // Profiles: the compute app is most power-efficient on all SMs, the streaming one on few.
  std::ifstream pin(out + "/profiles.json");
  json prof = json::parse(pin);
  ASSERT_EQ(prof["apps"].size(), 2u);
  EXPECT_EQ(prof["apps"][0]["points"].size(), 12u);
  EXPECT_EQ(s["apps"]["c"]["class"], "A");
  EXPECT_EQ(s["apps"]["c"]["opt"], 12);
  EXPECT_EQ(s["apps"]["s"]["class"], "M");
  EXPECT_LT(s["apps"]["s"]["opt"].get<int>(), 12);
  // The pair (first come, first served and matched alike: c+s, then s+c) under Algorithm 1:
  // c's opt of K drops to 11 and s, the less power-efficient, yields down to 1 SM.
  EXPECT_EQ(s["pairs"]["pair__c+s__sm-allocation"]["sms"], (json{11, 1}));
  EXPECT_EQ(s["pairs"]["pair__s+c__sm-allocation"]["sms"], (json{1, 11}));
  EXPECT_EQ(s["pairs"]["pair__c+s__baseline"]["sms"], (json{6, 6}));
  const json& q = s["queues"]["Q"]["policies"];
  EXPECT_DOUBLE_EQ(q["baseline"]["throughput"].get<double>(), 1.0);
  EXPECT_GT(q["sm-allocation"]["throughput"].get<double>(), 1.0);
  EXPECT_LT(q["sequential"]["throughput"].get<double>(), 1.0);
  EXPECT_GE(s["claims"].size(), 10u);
  for (const char* f : {"summary.md", "profiles.json", "pairs/c+s.json"})
    EXPECT_TRUE(std::filesystem::exists(out + "/" + f)) << f;
  // A second run reuses every simulation and gives the same results.
  ASSERT_EQ(run_gpupm("experiment sm-allocation --jobs 2 --config " + dir + "/exp.json --out " + out, &log), 0) << log;
  std::ifstream again(out + "/summary.json");
  json s2 = json::parse(again);
  EXPECT_EQ(s2["reused_runs"], s2["runs"]);
  EXPECT_EQ(s2["queues"], s["queues"]);
}

// Two real programs as one queue pair end to end, on the 12-SM copy: profiles of
// programs, their measured classes (none written in the config), the pair of
// programs co-running with the one done first re-spawned, and the summary.
TEST(SmAllocationExperiment, RealProgramsPair) {
  const std::string dir = small_setup(R"(["c", "s"])"), out = dir + "/out";
  std::ofstream(dir + "/real.json") << R"({"name": "sm-allocation", "suite": "real", "gpu": ")" << dir
                                    << R"(/gpu.json", "suite_dir": "configs/workloads/cuda/harmonia",
    "class_thresholds": {"active_mbu": 0.25, "active_l2_l1_gbps": 50, "cache_l2_hit": 0.5, "mixed_l2_hit": 0.25},
    "programs": [{"name": "maxflops"}, {"name": "device_memory"}, {"name": "lud"}],
    "queues": [{"name": "Q", "apps": ["maxflops", "device_memory"]}]})";
  std::string log;
  ASSERT_EQ(run_gpupm("experiment sm-allocation --jobs 2 --config " + dir + "/real.json --out " + out, &log), 0) << log;
  std::ifstream in(out + "/summary.json");
  const json s = json::parse(in);
  EXPECT_EQ(s["suite"], "real");
  ASSERT_EQ(s["apps"].size(), 2u);  // lud is in no queue: not profiled
  for (const char* program : {"maxflops", "device_memory"}) {
    EXPECT_FALSE(s["apps"][program].contains("intended_class")) << program;
    EXPECT_TRUE(s["apps"][program]["class"].is_string()) << program;
  }
  // MaxFlops moves no data; DeviceMemory streams (configs/workloads/cuda/harmonia/README.md).
  EXPECT_LT(s["apps"]["maxflops"]["full_gpu"]["mbu"].get<double>(),
            s["apps"]["device_memory"]["full_gpu"]["mbu"].get<double>());
  const json pair = gpupm::load_json_file(out + "/pairs/maxflops+device_memory.json");
  EXPECT_TRUE(pair["respawn"].get<bool>());
  EXPECT_TRUE(std::filesystem::path(pair["apps"][0]["program"].get<std::string>()).is_absolute());
  const json& q = s["queues"]["Q"]["policies"];
  EXPECT_DOUBLE_EQ(q["baseline"]["throughput"].get<double>(), 1.0);
  EXPECT_GT(q["sm-allocation"]["throughput"].get<double>(), 0.0);
  EXPECT_GE(s["claims"].size(), 10u);
  // --only names programs in a real suite: a queue needs all of its own.
  EXPECT_EQ(run_gpupm("experiment sm-allocation --only lud --config " + dir + "/real.json --out " + dir + "/o2", &log),
            2);
  EXPECT_NE(log.find("no queue uses only programs --only names"), std::string::npos) << log;
}

// The config's pascal_gpu (a 12-SM copy of the Pascal config): every profile and pair
// runs on both GPUs, one queue built from the classes measured on the first, and C6
// judged on the second.
TEST(SmAllocationExperiment, BuiltQueueOnTwoGpus) {
  const std::string dir = small_setup(R"(["c", "s"])"), out = dir + "/out";
  json pascal = gpupm::load_json_file(source_path("configs/gpu/pascal_60sm.json"));
  pascal["sm"]["count"] = 12;
  pascal["pdn"]["network"] = {{"rows", 3}, {"cols", 4}};
  std::ofstream(dir + "/pascal.json") << pascal.dump();
  json exp = gpupm::load_json_file(dir + "/exp.json");
  exp["pascal_gpu"] = dir + "/pascal.json";
  exp["queues"] = json::array({{{"name", "E"}, {"equal", true}}});
  std::ofstream(dir + "/two.json") << exp.dump();
  std::string log;
  ASSERT_EQ(run_gpupm("experiment sm-allocation --jobs 2 --config " + dir + "/two.json --out " + out, &log), 0) << log;
  const json s = gpupm::load_json_file(out + "/summary.json");
  EXPECT_EQ(s["queues"]["E"]["apps"], (json{"s", "c", "s", "c"}));  // two of each class: s measured M, c A
  EXPECT_EQ(s["queues"]["E"]["kind"], "equal: 2 of each measured class (M, A)");
  ASSERT_TRUE(s.contains("pascal")) << s.dump(1);
  EXPECT_EQ(s["pascal"]["sms"], 12);
  EXPECT_EQ(s["pascal"]["queues"]["E"]["apps"], s["queues"]["E"]["apps"]);
  EXPECT_TRUE(s["pascal"]["pairs"].contains("pascal__pair__s+c__sm-allocation"));
  EXPECT_TRUE(std::filesystem::exists(out + "/runs/pascal__profile__c__n12/report.json"));
  EXPECT_TRUE(std::filesystem::exists(out + "/pascal_profiles.json"));
  // Pascal's SMs are faster: the compute application takes less time alone on all of them.
  EXPECT_LT(s["pascal"]["queues"]["E"]["policies"]["sequential"]["time_s"].get<double>(),
            s["queues"]["E"]["policies"]["sequential"]["time_s"].get<double>());
  json c6;
  for (const json& c : s["claims"])
    if (c["id"] == "C6") c6 = c;
  EXPECT_NE(c6["verdict"], "n/a") << c6;
  EXPECT_EQ(
      c6["measured"].get<std::string>().rfind("on " + pascal["name"].get<std::string>() + ": power efficiency", 0), 0u)
      << c6;
  EXPECT_EQ(s["paper_columns"].size(), 16u);
  const std::string md = gpupm::test::read_file(out + "/summary.md");
  EXPECT_NE(md.find("## Both GPUs beside the paper's columns"), std::string::npos) << md;
}

TEST(SmAllocationExperiment, BadConfigExitsTwoNamingThePath) {
  std::string log;
  std::string dir = small_setup(R"(["c", "s", "c"])");
  EXPECT_EQ(run_gpupm("experiment sm-allocation --config " + dir + "/exp.json --out " + temp_dir("smaexp_bad"), &log),
            2);
  EXPECT_NE(log.find("queues[0].apps: expected an even number (>= 2) of application names"), std::string::npos) << log;
  dir = small_setup(R"(["c", "c", "s", "s"])");
  EXPECT_EQ(run_gpupm("experiment sm-allocation --config " + dir + "/exp.json --out " + temp_dir("smaexp_bad"), &log),
            2);
  EXPECT_NE(log.find("elements 0 and 1 are the same application"), std::string::npos) << log;
  EXPECT_EQ(run_gpupm("experiment sm-allocation --only nope --out " + temp_dir("smaexp_bad"), &log), 2);
  EXPECT_NE(log.find("queues: no entry named \"nope\" (from --only)"), std::string::npos) << log;
  // A queue is written or built, not both.
  dir = small_setup(R"(["c", "s"], "oriented": "A")");
  EXPECT_EQ(run_gpupm("experiment sm-allocation --config " + dir + "/exp.json --out " + temp_dir("smaexp_bad"), &log),
            2);
  EXPECT_NE(log.find("queues[0].apps: expected exactly one of apps, oriented, equal, random_seed (2 given)"),
            std::string::npos)
      << log;
  // A built queue's keys, and the second GPU's file, checked before anything runs.
  json bad = gpupm::load_json_file(dir + "/exp.json");
  bad["queues"] = json::array({{{"name", "E"}, {"equal", false}}});
  std::ofstream(dir + "/bad.json") << bad.dump();
  EXPECT_EQ(run_gpupm("experiment sm-allocation --config " + dir + "/bad.json --out " + temp_dir("smaexp_bad"), &log),
            2);
  EXPECT_NE(log.find("queues[0].equal: expected true"), std::string::npos) << log;
  bad["queues"] = json::array({{{"name", "E"}, {"equal", true}}});
  bad["pascal_gpu"] = dir + "/no_such_gpu.json";
  std::ofstream(dir + "/bad.json") << bad.dump();
  EXPECT_EQ(run_gpupm("experiment sm-allocation --config " + dir + "/bad.json --out " + temp_dir("smaexp_bad"), &log),
            2);
  EXPECT_NE(log.find("bad.json: pascal_gpu: "), std::string::npos) << log;
  // The shipped suite and config validate.
  std::string files = source_path("configs/gpu/gtx480_60sm.json");
  for (const char* a :
       {"hotspot", "backprop", "nbody", "gups", "stream", "scan", "lud", "kmeans", "nw", "spmv", "bfs", "srad"})
    files += " " + source_path(std::string("configs/workloads/sm_allocation/") + a + ".json");
  EXPECT_EQ(run_gpupm("validate " + files, &log), 0) << log;
}

}  // namespace
