// `gpupm params`: the declared parameters of a GPU config with their values
// after --set, as a table or JSON, and the schemas (--schema KIND).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace {

using gpupm::test::run_gpupm_argv;
using gpupm::test::source_path;

// The table row of `path` in a listing ("" when there is none).
std::string row_of(const std::string& listing, const std::string& path) {
  const size_t at = listing.find("\n" + path + " ");
  return at == std::string::npos ? "" : listing.substr(at + 1, listing.find('\n', at + 1) - at - 1);
}

TEST(ParamsCommand, ListsValueDefaultRangeAndUnitAfterSet) {
  auto r = run_gpupm_argv({"params", "--gpu", source_path("configs/gpu/gtx480.json"), "--set", "gpu.sm.count=30"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("path ", 0), 0u) << "a header line first";
  const std::string line = row_of(r.out, "gpu.sm.count");
  ASSERT_FALSE(line.empty()) << r.out;
  for (const char* part : {"integer", " 30 ", " 15 ", "[1, 1024]", "SMs"})
    EXPECT_NE(line.find(part), std::string::npos) << "'" << part << "' in: " << line;
  EXPECT_NE(r.out.find("gpu.dvfs.sm.levels[2].mhz"), std::string::npos);
  EXPECT_NE(r.out.find("gpu.sm.icache_geometry"), std::string::npos) << "the rules are listed";
}

TEST(ParamsCommand, JsonListsEveryRow) {
  auto r = run_gpupm_argv({"params", "--json", "--set", "gpu.memory.l2_clock=core"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  bool seen = false;
  for (const auto& p : doc.at("parameters"))
    if (p.at("path") == "gpu.memory.l2_clock") {
      seen = true;
      EXPECT_EQ(p.at("value"), "core");
      EXPECT_EQ(p.at("default"), "memory");
      EXPECT_EQ(p.at("range"), "{memory, core}");
    }
  EXPECT_TRUE(seen);
}

TEST(ParamsCommand, SchemaPrintsTheCommittedFile) {
  auto r = run_gpupm_argv({"params", "--schema", "workload"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, gpupm::test::read_file(source_path("docs/schema/workload.schema.json")));
}

TEST(ParamsCommand, ListsAPolicysSettingsForTheGpu) {
  auto r = run_gpupm_argv({"params", "--policy", "sm-high"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string line = row_of(r.out, "policy.sm_level");
  ASSERT_FALSE(line.empty()) << r.out;
  for (const char* part : {"choice", "\"high\"", "{low, normal, high}"})  // the preset; gtx480's SM levels
    EXPECT_NE(line.find(part), std::string::npos) << "'" << part << "' in: " << line;
  r = run_gpupm_argv({"params", "--policy", "equalizer-perf", "--json", "--set", "policy.sample_period_log2=9"});
  ASSERT_EQ(r.status, 0) << r.err;
  bool seen = false;
  const nlohmann::json listing = nlohmann::json::parse(r.out);  // outlives the loop
  for (const auto& p : listing.at("parameters"))
    if (p.at("path") == "policy.sample_period_log2") {
      seen = true;
      EXPECT_EQ(p.at("value"), 9);
      EXPECT_EQ(p.at("default"), 7);
      EXPECT_EQ(p.at("range"), "[1, 12]");
    }
  EXPECT_TRUE(seen) << r.out;
}

TEST(ParamsCommand, PolicyListingReadsTheSetsAsRunDoes) {
  auto r = run_gpupm_argv({"params", "--policy", "equalizer-perf", "--set", "policy.epoch_samples_log2=8", "--set",
                           "policy.sample_period_log2=9"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("policy.epoch_samples_log2: expected sample_period_log2 + epoch_samples_log2 <= 16"),
            std::string::npos)
      << r.err;
  r = run_gpupm_argv({"params", "--policy", "no-such-policy"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--policy"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("equalizer-perf"), std::string::npos) << "lists the policies: " << r.err;
}

// The value of the row at `path` in a --json listing (null: no such row).
nlohmann::json value_at(const std::string& json_listing, const std::string& path) {
  const nlohmann::json doc = nlohmann::json::parse(json_listing);  // outlives the loop
  for (const auto& p : doc.at("parameters"))
    if (p.at("path") == path) return p.at("value");
  return nullptr;
}

TEST(ParamsCommand, ListsTheFilesDescriptionsNotTheDefaults) {
  auto r = run_gpupm_argv({"params", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(value_at(r.out, "gpu.description").get<std::string>().find("GTX480"), std::string::npos);
}

TEST(ParamsCommand, PdnPackageMergedAsGpupmRunDoes) {
  auto r = run_gpupm_argv({"params", "--json", "--pdn", source_path("configs/pdn/package_II.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_at(r.out, "gpu.pdn.model"), "rlc");
  EXPECT_EQ(value_at(r.out, "gpu.pdn.network.name"), "II");
  EXPECT_EQ(value_at(r.out, "gpu.pdn.network.package.l_h"), 402e-12);
}

TEST(ParamsCommand, WorkloadStructureAndKernelFields) {
  auto r = run_gpupm_argv({"params", "--json", "--workload", source_path("configs/workloads/harmonia/bpt.json"),
                           "--set", "workload.kernels[1].grid_ctas=7"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(value_at(r.out, "workload.kernels[0].description").get<std::string>().find("initialises"),
            std::string::npos);
  EXPECT_EQ(value_at(r.out, "workload.kernels[1].grid_ctas"), 7);
  EXPECT_FALSE(value_at(r.out, "workload.iterations").is_null());
  EXPECT_FALSE(value_at(r.out, "workload.kernels[0].repeat").is_null());
  auto bad = run_gpupm_argv(
      {"params", "--workload", source_path("configs/workloads/compute.json"), "--set", "gpu.sm.count=3"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("expected a workload.* path"), std::string::npos) << bad.err;
}

TEST(ParamsCommand, ProgramWorkloadBuffersInitAndLaunches) {
  auto r = run_gpupm_argv({"params", "--json", "--workload", source_path("configs/workloads/cuda/corun/corun.json"),
                           "--set", "workload.apps[1].buffers.src.init.random.seed=12"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_at(r.out, "workload.apps[1].buffers.src.init.random.seed"), 12);
  EXPECT_EQ(value_at(r.out, "workload.apps[1].buffers.src.init.random.min"), -1.0);
  EXPECT_EQ(value_at(r.out, "workload.apps[0].buffers.out.type"), "f32");
  EXPECT_EQ(value_at(r.out, "workload.apps[0].launches[0].kernel"), "fma_loop");
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  for (const auto& p : doc.at("parameters")) {
    if (p.at("path") == "workload.apps[0].launches[0].repeat") {
      EXPECT_EQ(p.at("default"), 1);
    }
  }
  auto bad =
      run_gpupm_argv({"params", "--workload", source_path("configs/workloads/cuda/fma_loop/fma_loop.json"), "--set",
                      "workload.buffers.out.init.fill=1", "--set", "workload.buffers.out.init.file=x.npy"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("buffers.out.init: expected exactly one of fill, iota, random, file"), std::string::npos)
      << bad.err;
}

TEST(ParamsCommand, SweepSpecAxesAndBase) {
  auto r = run_gpupm_argv({"params", "--json", "--sweep", source_path("configs/sweeps/example.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_at(r.out, "sweep.axes[1].name"), "sm_level");
  EXPECT_EQ(value_at(r.out, "sweep.base.policy"), "static");
}

// An experiment config's parameters (issue 29 item 2): the shipped config's values with ranges.
TEST(ParamsCommand, ExperimentListsItsConfigWithRanges) {
  auto r = run_gpupm_argv({"params", "--experiment", "voltage-noise"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string line = row_of(r.out, "emergency_margin");
  ASSERT_FALSE(line.empty()) << r.out;
  for (const char* part : {"number", "0.08", "[0.01, 0.5]", "fraction of Vdd"})
    EXPECT_NE(line.find(part), std::string::npos) << "'" << part << "' in: " << line;
  EXPECT_NE(r.out.find("claims.16a.reduction_min"), std::string::npos) << "the claims' numbers are listed";
  EXPECT_NE(r.out.find("kernels[12].name"), std::string::npos) << "every entry";

  auto real = run_gpupm_argv({"params", "--json", "--experiment", "equalizer", "--suite", "real"});
  ASSERT_EQ(real.status, 0) << real.err;
  EXPECT_EQ(value_at(real.out, "classification.cache_gain_min"), 1.02);
  EXPECT_EQ(value_at(real.out, "programs[0].name"), "backprop");

  auto cs = run_gpupm_argv({"params", "--json", "--experiment", "core-shutdown"});
  ASSERT_EQ(cs.status, 0) << cs.err;
  EXPECT_EQ(value_at(cs.out, "policy_params"), nlohmann::json({{"alpha", 0.05}})) << "kept as given";
}

TEST(ParamsCommand, ExperimentUnknownNameOrSuite) {
  auto r = run_gpupm_argv({"params", "--experiment", "nosuch"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--experiment: unknown experiment \"nosuch\""), std::string::npos) << r.err;
  r = run_gpupm_argv({"params", "--experiment", "harmonia", "--suite", "bogus"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("{synthetic, real}"), std::string::npos) << r.err;
}

TEST(ParamsCommand, ExperimentSchemaIsOneOfTheFiveExperiments) {
  auto r = run_gpupm_argv({"params", "--schema", "experiment"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, gpupm::test::read_file(source_path("docs/schema/experiment.schema.json")));
  const nlohmann::json s = nlohmann::json::parse(r.out);
  ASSERT_EQ(s.at("oneOf").size(), 5u);
  const nlohmann::json& vn = s["oneOf"][2];
  EXPECT_EQ(vn["properties"]["name"]["enum"], nlohmann::json::array({"voltage-noise"}));
  EXPECT_EQ(vn["properties"]["emergency_margin"]["maximum"], 0.5);
  EXPECT_EQ(vn["properties"]["claims"]["properties"]["16a"]["required"],
            nlohmann::json::array({"claim", "paper", "reduction_min"}));
  EXPECT_EQ(run_gpupm_argv({"params", "--schema", "nosuch"}).status, 2);
}

}  // namespace
