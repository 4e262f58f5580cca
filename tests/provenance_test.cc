// Provenance: every report names the gpupm version and build id that made it,
// and a run directory made by another build, or from input files whose
// contents changed since (the PDN network file a GPU config names included),
// is run again with a message saying why, unless --reuse-stale keeps it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "gpupm/common/build_info.h"
#include "gpupm/common/json_reader.h"
#include "support/test_support.h"
#include "gpupm/sweep/run_executor.h"

namespace {

namespace fs = std::filesystem;
using namespace gpupm;
using gpupm::test::read_file;
using gpupm::test::source_path;
using gpupm::test::temp_dir;
using gpupm::test::write_file;

using gpupm::test::fake_gpupm;

// A GPU config whose RLC network is a package file of its own (named inside
// the config, not on the command line), and a copy of that package.
struct Inputs {
  std::string gpu, package, workload;
};
Inputs copied_inputs(const std::string& dir) {
  Inputs in;
  in.package = write_file(dir + "/package.json", read_file(source_path("configs/pdn/package_default.json")));
  Json gpu = load_json_file(source_path("configs/gpu/gtx480.json"));
  gpu["pdn"] = {{"model", "rlc"}, {"network", in.package}};
  in.gpu = write_file(dir + "/gpu.json", gpu.dump(2));
  in.workload = write_file(dir + "/workload.json", read_file(source_path("configs/workloads/compute.json")));
  return in;
}

std::vector<RunSpec> specs_for(const Inputs& in) {
  return {{"a", {"--gpu", in.gpu, "--workload", in.workload, "--seed", "1"}},
          {"b", {"--gpu", in.gpu, "--workload", in.workload, "--seed", "2"}}};
}

// Runs the specs, returning what the executor said on stderr.
std::string execute(const std::vector<RunSpec>& specs, const std::string& dir, bool reuse_stale,
                    std::vector<RunOutcome>* outcomes = nullptr) {
  ExecutorOptions ex;
  ex.binary = fake_gpupm(dir);
  ex.jobs = 2;
  ex.reuse_stale = reuse_stale;
  testing::internal::CaptureStderr();
  auto out = execute_runs(specs, dir + "/out", ex, false);
  if (outcomes) *outcomes = out;
  return testing::internal::GetCapturedStderr();
}

TEST(Provenance, ReportCarriesVersionAndBuildId) {
  const std::string dir = temp_dir("prov_report");
  auto r = gpupm::test::run_gpupm_argv({"run", "--quiet", "--gpu", source_path("configs/gpu/gtx480.json"), "--workload",
                                        source_path("configs/workloads/compute.json"), "--set",
                                        "workload.kernels[0].grid_ctas=30", "--out", dir});
  ASSERT_EQ(r.status, 0) << r.err;
  Json report = Json::parse(read_file(dir + "/report.json"));
  EXPECT_EQ(report["gpupm"]["version"], gpupm_version());
  EXPECT_EQ(report["gpupm"]["build_id"], gpupm_build_id());
  EXPECT_EQ(std::string(gpupm_build_id()).size(), 16u);
  EXPECT_FALSE(std::string(gpupm_version()).empty());
}

TEST(Provenance, VersionFlagNamesTheBuild) {
  auto r = gpupm::test::run_gpupm_argv({"--version"});
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string first_line = std::string("gpupm ") + gpupm_version() + " (build " + gpupm_build_id() + ")\n";
  EXPECT_EQ(r.out.substr(0, first_line.size()), first_line);
  // The second line names the clang CUDA programs compile with (cuda_compiler_test checks its text).
  EXPECT_EQ(r.out.substr(first_line.size()).rfind("CUDA clang: ", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2) << r.out;
}

TEST(Provenance, FingerprintCoversTheBuildAndEveryInputFilesContents) {
  const std::string dir = temp_dir("prov_fp");
  Inputs in = copied_inputs(dir);
  const RunSpec spec = specs_for(in)[0];
  const RunFingerprint before = fingerprint_of(spec);
  EXPECT_EQ(before.build, gpupm_build_id());
  EXPECT_EQ(RunFingerprint::parse(before.text()).inputs, before.inputs);
  // The package named inside the GPU config: its contents count, not only its path.
  write_file(in.package, read_file(in.package) + "\n");
  const RunFingerprint after_package = fingerprint_of(spec);
  EXPECT_NE(after_package.inputs, before.inputs);
  EXPECT_EQ(after_package.run, before.run);
  write_file(in.workload, read_file(in.workload) + "\n");
  EXPECT_NE(fingerprint_of(spec).inputs, after_package.inputs);
}

TEST(Provenance, FingerprintCoversEveryGpuConfigAConfigIsBasedOn) {
  const std::string dir = temp_dir("based_on_digest");
  const std::string whole = read_file(source_path("configs/gpu/gtx480.json"));
  const std::string base = write_file(dir + "/base.json", whole);
  const std::string child =
      write_file(dir + "/child.json", R"({"based_on": "base.json", "name": "c", "sm": {"count": 4}})");
  const std::vector<std::string> args = {"run", "--gpu", child, "--workload",
                                         source_path("configs/workloads/compute.json")};
  const std::string before = input_files_fingerprint(args);
  write_file(base, whole + "\n// changed\n");
  EXPECT_NE(input_files_fingerprint(args), before);
}

TEST(Provenance, StaleRunsAreRunAgainAndSayWhyUnlessReuseStale) {
  const std::string dir = temp_dir("prov_stale");
  Inputs in = copied_inputs(dir);
  const std::vector<RunSpec> specs = specs_for(in);
  execute(specs, dir, false);
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 2u);
  EXPECT_EQ(execute(specs, dir, false), "");  // all fresh: reused silently
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 2u);

  // Run a as if made by another build: edit its recorded build id.
  const std::string fp_file = dir + "/out/runs/a/inputs.fingerprint";
  RunFingerprint fp = RunFingerprint::parse(read_file(fp_file));
  fp.build = "0000000000000000";
  write_file(fp_file, fp.text());
  std::string said = execute(specs, dir, false);
  EXPECT_NE(said.find("1 run stale: built by a different gpupm; running again (--reuse-stale keeps them)"),
            std::string::npos)
      << said;
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 3u);

  // The PDN package the GPU config names changes: both stale.
  write_file(in.package, read_file(in.package) + "\n");
  std::vector<RunOutcome> out;
  said = execute(specs, dir, true, &out);
  EXPECT_NE(said.find("2 runs stale: an input file changed; reused as they are (--reuse-stale)"), std::string::npos)
      << said;
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 3u);
  EXPECT_TRUE(out[0].reused && out[1].reused);
  said = execute(specs, dir, false, &out);
  EXPECT_NE(said.find("2 runs stale: an input file changed; running again"), std::string::npos) << said;
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 5u);
  EXPECT_FALSE(out[0].reused || out[1].reused);
  EXPECT_EQ(execute(specs, dir, false), "");
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 5u);
}

// The same run ids with other arguments (here the inputs at another path, as a checkout moved
// since the runs were made) are other runs: never reused, even with --reuse-stale, and said.
TEST(Provenance, ARunOfOtherArgumentsIsRunAgainAndSaidEvenWithReuseStale) {
  const std::string dir = temp_dir("prov_other_args");
  execute(specs_for(copied_inputs(dir)), dir, false);
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 2u);
  fs::create_directories(dir + "/moved");
  const std::vector<RunSpec> moved = specs_for(copied_inputs(dir + "/moved"));
  std::vector<RunOutcome> out;
  const std::string said = execute(moved, dir, true, &out);
  EXPECT_NE(said.find("2 runs in the output folder hold the results of other arguments"), std::string::npos) << said;
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 4u);
  EXPECT_FALSE(out[0].reused || out[1].reused);
  EXPECT_EQ(execute(moved, dir, true), "");
}

TEST(Provenance, AFingerprintFromBeforeProvenanceIsStale) {
  const std::string dir = temp_dir("prov_old");
  Inputs in = copied_inputs(dir);
  const std::vector<RunSpec> specs = specs_for(in);
  execute(specs, dir, false);
  write_file(dir + "/out/runs/b/inputs.fingerprint", "0123456789abcdef");  // the old one-digest format
  std::string said = execute(specs, dir, false);
  EXPECT_NE(said.find("1 run stale: built by a different gpupm"), std::string::npos) << said;
  EXPECT_EQ(gpupm::test::fake_gpupm_starts(dir), 3u);
}

TEST(Provenance, SweepResultsCarryProvenanceAndAStaleRerunSaysWhy) {
  const std::string dir = temp_dir("prov_sweep");
  Inputs in = copied_inputs(dir);
  Json gpu = Json::parse(read_file(in.gpu));
  gpu["pdn"]["model"] = "ideal";  // the package still named, not simulated: a quick run
  write_file(in.gpu, gpu.dump(2));
  const std::string spec =
      write_file(dir + "/spec.json",
                 Json{{"name", "prov"},
                      {"base",
                       {{"gpu", in.gpu},
                        {"workload", in.workload},
                        {"set", {"workload.kernels[0].grid_ctas=30", "workload.kernels[0].insts_per_warp=500"}}}},
                      {"axes", {{{"name", "policy"}, {"policies", {"baseline", "sm-high"}}}}}}
                     .dump());
  const std::string out = dir + "/out";
  auto sweep = [&](std::vector<std::string> more) {
    std::vector<std::string> args = {"sweep", spec, "--out", out, "--jobs", "2"};
    args.insert(args.end(), more.begin(), more.end());
    return gpupm::test::run_gpupm_argv(args);
  };
  auto first = sweep({});
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string csv = read_file(out + "/results.csv");
  EXPECT_NE(csv.find(",gpupm_version,build_id,error\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(std::string(",") + gpupm_version() + "," + gpupm_build_id() + ","), std::string::npos) << csv;

  // The network file the GPU config names changes: both runs are stale.
  write_file(in.package, read_file(in.package) + "\n");
  auto kept = sweep({"--reuse-stale"});
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_NE(kept.err.find("2 runs stale: an input file changed; reused as they are"), std::string::npos) << kept.err;
  EXPECT_NE(kept.out.find("(2 reused, 0 failed)"), std::string::npos) << kept.out;
  auto again = sweep({});
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find("2 runs stale: an input file changed; running again"), std::string::npos) << again.err;
  EXPECT_NE(again.out.find("(0 reused, 0 failed)"), std::string::npos) << again.out;
}

}  // namespace

// A committed result is one a reader can reproduce: every summary.json under
// docs/ names the clean commit whose build made it (never "-dirty" or
// "unknown") and carries its headline verdicts as targets.
TEST(Provenance, CommittedSummariesNameACleanCommitAndCarryTargets) {
  size_t checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(source_path("docs"))) {
    if (entry.path().filename() != "summary.json") continue;
    ++checked;
    const std::string file = entry.path().string();
    const nlohmann::json s = nlohmann::json::parse(read_file(file));
    ASSERT_TRUE(s.contains("gpupm") && s["gpupm"].contains("version")) << file << ": no gpupm.version";
    const std::string version = s["gpupm"]["version"].get<std::string>();
    EXPECT_EQ(version.find("-dirty"), std::string::npos) << file << ": made by a build with uncommitted changes";
    EXPECT_NE(version, "unknown") << file;
    ASSERT_TRUE(s.contains("targets") && s["targets"].is_array() && !s["targets"].empty()) << file << ": no targets";
    for (const auto& t : s["targets"])
      EXPECT_TRUE(t["target"].is_string() && t["measured"].is_string() && t["pass"].is_boolean()) << file << ": " << t;
  }
  EXPECT_GE(checked, 10u);
}
