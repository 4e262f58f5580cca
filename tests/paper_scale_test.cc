// Paper-scale inputs (program/workload_scale.h): --scale on every command,
// generation once into the cache (atomic, keyed by the generator's sources and
// arguments, reproducible), clear refusals, ci unchanged. A tiny generated
// workload of the reduce program stands in for the suites' (seconds, not minutes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "gpupm/common/json_reader.h"
#include "gpupm/experiment/sm_allocation/sm_allocation.h"
#include "gpupm/program/workload_scale.h"
#include "support/test_support.h"

using gpupm::test::read_file;
using gpupm::test::run_gpupm;
using gpupm::test::source_path;
using gpupm::test::temp_dir;
using gpupm::test::write_file;
namespace fs = std::filesystem;

namespace {

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A fresh cache for this test process (children inherit it).
std::string fresh_cache(const std::string& tag) {
  const std::string cache = temp_dir(tag + "_cache");
  ::setenv("GPUPM_CACHE_DIR", cache.c_str(), 1);
  return cache;
}

// A folder with reduce.cu, a ci workload of it declaring a paper scale, and
// the generator: `values` floats (a .npy, written through paper_scale.py) and
// the same two launches; `generator_body` replaces the generator to test failures.
std::string tiny_program(const std::string& tag, const std::string& generator_body = "") {
  const std::string dir = temp_dir(tag);
  fs::copy_file(source_path("configs/workloads/cuda/reduce/reduce.cu"), dir + "/reduce.cu");
  write_file(dir + "/reduce.json", R"({
  "name": "reduce", "program": "reduce.cu",
  "scales": {"paper": {"generator": "gen.py", "args": ["reduce", "values=3000"]}},
  "buffers": {"in": {"type": "f32", "count": 1024, "init": {"fill": 1.0}},
              "partial": {"type": "f32", "count": 4}, "total": {"type": "f32", "count": 1}},
  "launches": [{"kernel": "reduce_sum", "grid": [4], "block": [256], "args": ["in", "partial", 1024]},
               {"kernel": "reduce_sum", "grid": [1], "block": [256], "args": ["partial", "total", 4]}]
})");
  write_file(dir + "/gen.py", generator_body.empty() ? R"(
from paper_scale import Rng, main

def reduce(out, values=1000):
    out.array("in", "f32", Rng(5).uniform(-1.0, 1.0, values))
    out.buffer("partial", "f32", 8)
    out.buffer("total", "f32", 1)
    out.launch("reduce_sum", [8], [256], ["in", "partial", values])
    out.launch("reduce_sum", [1], [256], ["partial", "total", 8])
    out.facts["values"] = values
    out.write("tiny paper scale")

main({"reduce": reduce})
)"
                                                     : generator_body);
  return dir + "/reduce.json";
}

// A real SM-allocation suite in a fresh folder: programs r1 and r2 (the tiny
// program, declaring values=3000 and values=5000 at paper scale), a 12-SM GPU
// and exp.json with PROGRAMS as its "programs" and one queue of r1 and r2.
std::string tiny_sm_allocation_suite(const std::string& tag,
                                     const std::string& programs = R"([{"name": "r1"}, {"name": "r2"}])") {
  const std::string dir = temp_dir(tag + "_suite");
  const std::string tiny = tiny_program(tag + "_tiny");
  for (const std::string name : {"r1", "r2"}) {  // two programs: a pair never runs one with itself
    fs::create_directories(dir + "/" + name);
    fs::copy_file(fs::path(tiny).parent_path() / "reduce.cu", dir + "/" + name + "/reduce.cu");
    fs::copy_file(fs::path(tiny).parent_path() / "gen.py", dir + "/" + name + "/gen.py");
    gpupm::Json doc = gpupm::load_json_file(tiny);
    doc["name"] = name;
    doc["scales"]["paper"]["args"][1] = name == "r1" ? "values=3000" : "values=5000";
    write_file(dir + "/" + name + "/" + name + ".json", doc.dump());
  }
  gpupm::Json gpu12 = gpupm::load_json_file(source_path("configs/gpu/gtx480_60sm.json"));
  gpu12["sm"]["count"] = 12;  // profiles step 1 SM
  gpu12["pdn"]["network"] = {{"rows", 3}, {"cols", 4}};
  write_file(dir + "/gpu.json", gpu12.dump());
  write_file(dir + "/exp.json", R"({"name": "sm-allocation", "suite": "real", "gpu": ")" + dir + R"(/gpu.json",
    "suite_dir": ")" + dir + R"(", "programs": )" +
                                    programs + R"(,
    "class_thresholds": {"active_mbu": 0.25, "active_l2_l1_gbps": 50, "cache_l2_hit": 0.5, "mixed_l2_hit": 0.25},
    "queues": [{"name": "Q", "apps": ["r1", "r2"]}]})");
  return dir;
}

std::string run_at(const std::string& workload, const std::string& out, const std::string& scale_option,
                   std::string* output) {
  run_gpupm("run --quiet --gpu " + gpupm::test::gtx480_config() + " --workload " + workload + " --out " + out + " " +
                scale_option,
            output);
  return read_file(out + "/report.json");
}

}  // namespace

TEST(PaperScale, GeneratedOnceIntoTheCacheAndNamedInTheReport) {
  const std::string cache = fresh_cache("once");
  const std::string workload = tiny_program("once");
  const std::string out = temp_dir("once_out");
  // A generation that died (killed, power cut) left its temporary folder: the next one clears it.
  const std::string key_dir = fs::path(gpupm::scale_generator(workload, "paper").dir).filename().string();
  const std::string stale = cache + "/inputs/.tmp-" + key_dir + "-99.0.0";
  fs::create_directories(stale);
  std::string first, second;
  const std::string report_text = run_at(workload, out + "/a", "--scale paper", &first);
  EXPECT_FALSE(fs::exists(stale));
  ASSERT_FALSE(report_text.empty()) << first;
  EXPECT_EQ(count_of(first, "gpupm: generating"), 1u) << first;
  EXPECT_TRUE(std::regex_search(first, std::regex(R"(generated [0-9.]+ MB in [0-9.]+ s)"))) << first;
  run_at(workload, out + "/b", "--scale paper", &second);
  EXPECT_EQ(count_of(second, "generating"), 0u) << second;  // from the cache
  EXPECT_EQ(read_file(out + "/b/report.json"), report_text);

  const gpupm::Json report = gpupm::Json::parse(report_text);
  const gpupm::Json& scale = report.at("scale");
  EXPECT_EQ(scale.at("name"), "paper");
  EXPECT_EQ(scale.at("generator"), "gen.py");
  EXPECT_EQ(scale.at("args"), gpupm::Json::parse(R"(["reduce", "values=3000"])"));
  const gpupm::Json& wl = report.at("config").at("workload");
  EXPECT_EQ(wl.at("program"), "reduce.cu");  // the declaring workload's, named as it does: no absolute path
  EXPECT_EQ(wl.at("buffers").at("in").at("count"), 3000);
  EXPECT_EQ(wl.at("buffers").at("in").at("init").at("file"), "in.npy");
  EXPECT_EQ(report.at("kernels").size(), 2u);
  EXPECT_EQ(report_text.find(cache), std::string::npos) << "the report names the cache folder";

  // One folder named by the key, complete, no temporaries left; its digest is the report's.
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(cache + "/inputs"))
    if (e.path().extension() != ".lock") entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].filename().string(), "reduce-paper-" + scale.at("key").get<std::string>());
  EXPECT_EQ(gpupm::generated_inputs_digest(entries[0].string()), scale.at("inputs").get<std::string>());
}

// Reproducible and keyed: the same sources and arguments give the same key and
// bytes in another cache; a change to the generator, to a module it imports
// from the repository, or to an argument is another key.
TEST(PaperScale, KeyedByGeneratorImportsAndArguments) {
  fresh_cache("key");
  const std::string workload = tiny_program("key");
  const gpupm::ScaleGenerator g = gpupm::scale_generator(workload, "paper");
  const std::string digest = gpupm::generated_inputs_digest(gpupm::ensure_generated(g));
  fresh_cache("key2");
  EXPECT_EQ(gpupm::generated_inputs_digest(gpupm::ensure_generated(gpupm::scale_generator(workload, "paper"))), digest);

  const auto sources = gpupm::generator_sources(g.generator);
  ASSERT_EQ(sources.size(), 2u);
  EXPECT_EQ(sources[1].first, "paper_scale.py");  // found on the shared module folder

  const std::string dir = fs::path(workload).parent_path().string();
  write_file(dir + "/helper.py", "SIZE = 1\n");
  write_file(dir + "/gen.py", "import helper\n" + read_file(dir + "/gen.py"));
  const std::string with_import = gpupm::scale_generator(workload, "paper").key;
  EXPECT_NE(with_import, g.key);
  write_file(dir + "/helper.py", "SIZE = 2\n");
  EXPECT_NE(gpupm::scale_generator(workload, "paper").key, with_import);
  std::string text = read_file(workload);
  text.replace(text.find("values=3000"), 11, "values=3001");
  write_file(workload, text);
  EXPECT_NE(gpupm::scale_generator(workload, "paper").key, with_import);
}

TEST(PaperScale, CiIsTheDefaultAndUnchanged) {
  fresh_cache("ci");
  const std::string workload = tiny_program("ci");
  const std::string out = temp_dir("ci_out");
  std::string a, b;
  const std::string plain = run_at(workload, out + "/plain", "", &a);
  ASSERT_FALSE(plain.empty()) << a;
  EXPECT_EQ(run_at(workload, out + "/ci", "--scale ci", &b), plain) << b;
  EXPECT_EQ(read_file(out + "/ci/epochs.csv"), read_file(out + "/plain/epochs.csv"));
  const gpupm::Json report = gpupm::Json::parse(plain);
  EXPECT_FALSE(report.contains("scale"));
  EXPECT_FALSE(report.at("config").at("workload").contains("scales"));  // a declaration, not part of the run
  EXPECT_EQ(count_of(a + b, "generating"), 0u);
  EXPECT_FALSE(fs::exists(std::string(std::getenv("GPUPM_CACHE_DIR")) + "/inputs"));
}

// --scale paper on a workload without a paper variant: exit 2 naming the workload
// and the option, before anything runs or is written, on every command.
TEST(PaperScale, RefusedWithoutAPaperVariant) {
  fresh_cache("refused");
  const std::string profile = source_path("configs/workloads/compute.json");
  const std::string program = source_path("configs/workloads/cuda/reduce/reduce.json");
  for (const std::string& workload : {profile, program}) {
    const std::string out = temp_dir("refused_out") + "/run";
    std::string output;
    EXPECT_EQ(run_gpupm("run --gpu " + gpupm::test::gtx480_config() + " --workload " + workload +
                            " --scale paper --out " + out,
                        &output),
              2);
    EXPECT_NE(output.find(workload), std::string::npos) << output;
    EXPECT_NE(output.find("--scale paper"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(out)) << output;
    EXPECT_EQ(run_gpupm("validate --scale paper " + workload, &output), 2) << output;
    EXPECT_NE(output.find("--scale paper"), std::string::npos) << output;
  }
  std::string output;
  const std::string sweep_out = temp_dir("refused_sweep") + "/sweep";
  EXPECT_EQ(
      run_gpupm("sweep " + source_path("configs/sweeps/example.json") + " --scale paper --out " + sweep_out, &output),
      2)
      << output;
  EXPECT_NE(output.find("--scale paper"), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(sweep_out + "/runs")) << output;
  const std::string exp_out = temp_dir("refused_exp") + "/exp";
  EXPECT_EQ(run_gpupm("experiment equalizer --scale paper --jobs 1 --out " + exp_out, &output), 2) << output;
  EXPECT_NE(output.find("--scale paper"), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(exp_out + "/runs")) << output;
  // The synthetic SM-allocation suite's profiles have none either: refused before its first stage.
  EXPECT_EQ(run_gpupm("experiment sm-allocation --scale paper --jobs 1 --out " + exp_out, &output), 2) << output;
  EXPECT_NE(output.find("--scale paper"), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(exp_out + "/runs")) << output;
  EXPECT_EQ(run_gpupm("run --gpu " + gpupm::test::gtx480_config() + " --workload " + program + " --scale huge --out " +
                          exp_out,
                      &output),
            2);
  EXPECT_NE(output.find("--scale"), std::string::npos) << output;
}

// The SM-allocation experiment's co-running pairs at paper scale: each program's
// entry in pairs/A+B.json is its generated workload, its files in the cache, and
// the pair runs exactly that (the profiles and the pairs see the same inputs).
TEST(PaperScale, SmAllocationPairsRunTheGeneratedInputs) {
  const std::string cache = fresh_cache("pairs");
  const std::string dir = tiny_sm_allocation_suite("pairs"), out = dir + "/out";
  std::string output;
  ASSERT_EQ(
      run_gpupm("experiment sm-allocation --jobs 2 --scale paper --config " + dir + "/exp.json --out " + out, &output),
      0)
      << output;
  const gpupm::Json pair = gpupm::load_json_file(out + "/pairs/r1+r2.json");
  ASSERT_EQ(pair["apps"].size(), 2u);
  const std::vector<int> values = {3000, 5000};
  for (size_t i = 0; i < 2; ++i) {
    const gpupm::Json& in = pair["apps"][i]["buffers"]["in"];
    EXPECT_EQ(in["count"].get<int>(), values[i]) << pair.dump();
    const std::string file = in["init"]["file"].get<std::string>();
    EXPECT_EQ(file.rfind(cache, 0), 0u) << file;  // the generated .npy, in the cache
    EXPECT_TRUE(fs::exists(file)) << file;
    EXPECT_FALSE(pair["apps"][i].contains("scales")) << pair.dump();
  }
  EXPECT_NE(pair["description"].get<std::string>().find("r2 at --scale paper, inputs "), std::string::npos);
  // The pair ran those launches: the generated first grid is 8 CTAs (ci's is 4).
  const gpupm::Json report = gpupm::load_json_file(out + "/runs/pair__r1+r2__baseline/report.json");
  ASSERT_FALSE(report["kernels"].empty());
  std::set<int> grids;
  for (const gpupm::Json& k : report["kernels"]) grids.insert(k["grid"][0].get<int>());
  EXPECT_EQ(grids, (std::set<int>{1, 8})) << report["kernels"].dump();
  const gpupm::Json summary = gpupm::load_json_file(out + "/summary.json");
  EXPECT_EQ(summary.value("scale", std::string()), "paper");
}

// Other generator arguments for one caller (an experiment's own cuts): a copy of
// the workload in the cache, named by its content, whose paper scale generates
// those arguments' inputs under their own key; the same workload at ci; the
// shared workload untouched.
TEST(PaperScale, OtherArgsInACopyKeyedByThem) {
  const std::string cache = fresh_cache("args");
  const std::string workload = tiny_program("args");
  const std::string declared = read_file(workload);
  EXPECT_EQ(gpupm::workload_with_paper_args(workload, {"reduce", "values=3000"}), workload);  // its own arguments
  const std::vector<std::string> args = {"reduce", "values=2000"};
  const std::string copy = gpupm::workload_with_paper_args(workload, args);
  EXPECT_EQ(copy.rfind(cache + "/workloads/reduce-", 0), 0u) << copy;
  EXPECT_EQ(fs::path(copy).filename(), "reduce.json");  // the stem names the inputs' folder
  EXPECT_EQ(gpupm::workload_with_paper_args(workload, args), copy);
  EXPECT_NE(gpupm::workload_with_paper_args(workload, {"reduce", "values=2001"}), copy);
  EXPECT_EQ(read_file(workload), declared);

  const gpupm::ScaleGenerator mine = gpupm::scale_generator(copy, "paper");
  const gpupm::ScaleGenerator shared = gpupm::scale_generator(workload, "paper");
  EXPECT_EQ(mine.args, args);
  EXPECT_EQ(mine.generator, shared.generator);
  EXPECT_NE(mine.key, shared.key);
  EXPECT_EQ(fs::path(mine.dir).filename().string(), "reduce-paper-" + mine.key);
  const gpupm::ScaledWorkload at_paper = gpupm::load_workload_at_scale(copy, "paper");
  EXPECT_EQ(at_paper.inputs_dir, mine.dir);
  EXPECT_EQ(at_paper.record.at("args"), gpupm::Json(args));
  EXPECT_EQ(at_paper.doc.at("buffers").at("in").at("count"), 2000);
  EXPECT_FALSE(fs::exists(shared.dir));  // the shared arguments' inputs were never made

  gpupm::Json ci = gpupm::load_workload_at_scale(workload, "ci").doc;
  const std::string dir = fs::absolute(fs::path(workload).parent_path()).string();
  gpupm::make_workload_paths_absolute(ci, dir, dir);
  EXPECT_EQ(gpupm::load_workload_at_scale(copy, "ci").doc, ci);

  EXPECT_THROW(gpupm::workload_with_paper_args(source_path("configs/workloads/cuda/reduce/reduce.json"), {"reduce"}),
               gpupm::InputError);
}

namespace {

gpupm::SmAllocationConfig load_sm_allocation(const std::string& config, const std::string& scale) {
  gpupm::ExperimentOptions opt;
  opt.name = "sm-allocation";
  opt.suite = "real";
  opt.config = config;
  opt.scale = scale;
  opt.out_dir = temp_dir("sma_load");
  return gpupm::SmAllocation::load(opt, source_path("configs/experiments/sm_allocation.json"));
}

// What the experiment would run first: each program's workload file and the profile runs.
std::string first_stage(const gpupm::SmAllocationConfig& c) {
  std::string text;
  for (const gpupm::SmAllocationApp& a : c.apps) text += a.name + " " + a.file + "\n";
  for (const gpupm::RunSpec& r : gpupm::SmAllocation::plan(c, gpupm::RunReports(), 0)) {
    text += r.id;
    for (const std::string& a : r.args) text += " " + a;
    text += "\n";
  }
  return text;
}

std::string workload_of_run(const gpupm::RunSpec& r) {
  const auto at = std::find(r.args.begin(), r.args.end(), "--workload");
  return at == r.args.end() || at + 1 == r.args.end() ? "" : *(at + 1);
}

}  // namespace

// A program's paper_args in the SM-allocation config: at --scale paper its
// profile runs (and so its pairs, written from the same file) run a copy
// declaring them, whose inputs the load made under their key; the others run
// their own workload. At ci nothing changes: the committed inputs, the same
// runs as without paper_args, nothing generated.
TEST(PaperScale, SmAllocationPaperArgsReachTheRunsAtPaperOnly) {
  const std::string cache = fresh_cache("sma_args");
  const std::string dir = tiny_sm_allocation_suite(
      "sma_args", R"([{"name": "r1", "paper_args": ["reduce", "values=2000"]}, {"name": "r2"}])");
  const std::string r1 = dir + "/r1/r1.json", r2 = dir + "/r2/r2.json";

  const gpupm::SmAllocationConfig ci = load_sm_allocation(dir + "/exp.json", "ci");
  ASSERT_EQ(ci.apps.size(), 2u);
  EXPECT_EQ(ci.apps[0].file, r1);
  EXPECT_FALSE(fs::exists(cache + "/workloads"));
  EXPECT_FALSE(fs::exists(cache + "/inputs"));
  gpupm::Json plain = gpupm::load_json_file(dir + "/exp.json");
  plain["programs"][0].erase("paper_args");
  write_file(dir + "/plain.json", plain.dump());
  EXPECT_EQ(first_stage(ci), first_stage(load_sm_allocation(dir + "/plain.json", "ci")));

  const gpupm::SmAllocationConfig paper = load_sm_allocation(dir + "/exp.json", "paper");
  ASSERT_EQ(paper.apps.size(), 2u);
  const std::string copy = paper.apps[0].file;
  EXPECT_EQ(copy.rfind(cache + "/workloads/r1-", 0), 0u) << copy;
  EXPECT_EQ(paper.apps[1].file, r2);
  const gpupm::ScaleGenerator g = gpupm::scale_generator(copy, "paper");
  EXPECT_EQ(g.args, (std::vector<std::string>{"reduce", "values=2000"}));
  EXPECT_NE(g.key, gpupm::scale_generator(r1, "paper").key);
  ASSERT_TRUE(fs::exists(g.dir + "/scale.json"));  // generated while the config was checked
  EXPECT_EQ(gpupm::load_json_file(g.dir + "/scale.json").at("args"), gpupm::Json(g.args));
  size_t r1_runs = 0;
  for (const gpupm::RunSpec& r : gpupm::SmAllocation::plan(paper, gpupm::RunReports(), 0)) {
    const bool of_r1 = r.id.find("__r1__") != std::string::npos;
    r1_runs += of_r1;
    EXPECT_EQ(workload_of_run(r), of_r1 ? copy : r2) << r.id;
  }
  EXPECT_EQ(r1_runs, 12u);
}

// paper_args where they cannot apply: exit 2 naming the config and the entry's
// path, at either scale (the config is wrong whatever the scale).
TEST(PaperScale, SmAllocationPaperArgsRefusedWithTheConfigPath) {
  fresh_cache("sma_refused");
  const std::string dir = tiny_sm_allocation_suite(
      "sma_refused", R"([{"name": "r1"}, {"name": "r2", "paper_args": ["reduce", "values=2000"]}])");
  gpupm::Json r2 = gpupm::load_json_file(dir + "/r2/r2.json");
  r2.erase("scales");
  write_file(dir + "/r2/r2.json", r2.dump());
  std::string output;
  for (const std::string scale : {"ci", "paper"}) {
    EXPECT_EQ(run_gpupm("validate --scale " + scale + " " + dir + "/exp.json", &output), 2) << output;
    EXPECT_NE(output.find(dir + "/exp.json"), std::string::npos) << output;
    EXPECT_NE(output.find("programs[1].paper_args"), std::string::npos) << output;
    EXPECT_NE(output.find("declares no paper scale"), std::string::npos) << output;
  }
  const std::string other = tiny_sm_allocation_suite(
      "sma_other", R"([{"name": "r1", "paper_args": ["mummer", "values=2000"]}, {"name": "r2"}])");
  EXPECT_EQ(run_gpupm("validate --scale paper " + other + "/exp.json", &output), 2) << output;
  EXPECT_NE(output.find("programs[0].paper_args"), std::string::npos) << output;
  EXPECT_NE(output.find("expected \"reduce\""), std::string::npos) << output;
  EXPECT_EQ(run_gpupm("validate --scale paper " + tiny_sm_allocation_suite("sma_empty", R"([{"name": "r1",
    "paper_args": []}, {"name": "r2"}])") +
                          "/exp.json",
                      &output),
            2)
      << output;
  EXPECT_NE(output.find("paper_args"), std::string::npos) << output;
}

// The shipped real config's paper_args change nothing at ci: the first stage
// (each program's file, every profile run) is that of the config without them.
TEST(PaperScale, SmAllocationShippedCiRunsUnchangedByPaperArgs) {
  const std::string cache = fresh_cache("sma_shipped");
  const std::string shipped = source_path("configs/experiments/sm_allocation_real.json");
  gpupm::Json plain = gpupm::load_json_file(shipped);
  size_t with_args = 0;
  for (gpupm::Json& p : plain["programs"]) with_args += p.erase("paper_args");
  EXPECT_GT(with_args, 0u);
  const std::string plain_file = write_file(temp_dir("sma_shipped") + "/plain.json", plain.dump());
  const std::string shipped_runs = first_stage(load_sm_allocation(shipped, "ci"));
  EXPECT_EQ(shipped_runs, first_stage(load_sm_allocation(plain_file, "ci")));
  EXPECT_EQ(shipped_runs.find(cache), std::string::npos);  // no copy of a workload
  EXPECT_FALSE(fs::exists(cache + "/workloads"));
}

TEST(PaperScale, GeneratorProblemsAreClearErrors) {
  const std::string cache = fresh_cache("fails");
  const std::string failing = tiny_program("fails", "import sys\nsys.exit('no disk for you')\n");
  std::string output;
  const std::string out = temp_dir("fails_out") + "/run";
  EXPECT_EQ(
      run_gpupm("run --gpu " + gpupm::test::gtx480_config() + " --workload " + failing + " --scale paper --out " + out,
                &output),
      2);
  EXPECT_NE(output.find("the generator failed"), std::string::npos) << output;
  EXPECT_NE(output.find("no disk for you"), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(cache + "/inputs"))  // nothing half-made left behind
    EXPECT_EQ(e.path().extension(), ".lock") << e.path();

  const std::string endless = tiny_program("endless", "while True:\n    pass\n");
  ::setenv("GPUPM_GENERATOR_TIMEOUT", "1", 1);  // children inherit it
  EXPECT_EQ(run_gpupm("validate --scale paper " + endless, &output), 2);
  EXPECT_NE(output.find("the generator did not finish within 1 s"), std::string::npos) << output;
  EXPECT_NE(output.find("GPUPM_GENERATOR_TIMEOUT"), std::string::npos) << output;
  ::setenv("GPUPM_GENERATOR_TIMEOUT", "never", 1);
  EXPECT_EQ(run_gpupm("validate --scale paper " + endless, &output), 2);
  EXPECT_NE(output.find("GPUPM_GENERATOR_TIMEOUT: never: expected a number of seconds"), std::string::npos) << output;
  ::unsetenv("GPUPM_GENERATOR_TIMEOUT");

  const std::string silent = tiny_program("silent", "pass\n");
  EXPECT_EQ(run_gpupm("validate --scale paper " + silent, &output), 2);
  EXPECT_NE(output.find("wrote no OUT_DIR/workload.json"), std::string::npos) << output;

  ::setenv("GPUPM_PYTHON", "/nonexistent/python3", 1);
  EXPECT_EQ(run_gpupm("validate --scale paper " + tiny_program("nopython"), &output), 2);
  EXPECT_NE(output.find("no python3"), std::string::npos) << output;
  ::unsetenv("GPUPM_PYTHON");

  const std::string names_program =
      tiny_program("names",
                   "import json, sys\njson.dump({'name': 'x', 'program': 'other.cu', 'launches': []}, "
                   "open(sys.argv[1] + '/workload.json', 'w'))\n");
  EXPECT_EQ(run_gpupm("validate --scale paper " + names_program, &output), 2);
  EXPECT_NE(output.find("runs the declaring workload's program"), std::string::npos) << output;
}

// A sweep at paper scale generates once, in the sweep, before its runs start
// (two jobs never race), and every run gets --scale paper.
TEST(PaperScale, SweepGeneratesBeforeItsRuns) {
  fresh_cache("sweep");
  const std::string workload = tiny_program("sweep");
  const std::string dir = fs::path(workload).parent_path().string();
  write_file(dir + "/spec.json",
             R"({"name": "tiny", "base": {"gpu": ")" + gpupm::test::gtx480_config() + R"(", "workload": "reduce.json"},
    "axes": [{"name": "policy", "policies": ["baseline", "sm-low"]}]})");
  std::string output;
  const std::string out = temp_dir("sweep_out") + "/sweep";
  ASSERT_EQ(run_gpupm("sweep " + dir + "/spec.json --scale paper --jobs 2 --out " + out, &output), 0) << output;
  EXPECT_EQ(count_of(output, "gpupm: generating"), 1u) << output;
  size_t runs = 0;
  for (const auto& e : fs::directory_iterator(out + "/runs")) {
    ++runs;
    EXPECT_EQ(count_of(read_file(e.path().string() + "/log.txt"), "generating"), 0u);
    const gpupm::Json report = gpupm::Json::parse(read_file(e.path().string() + "/report.json"));
    EXPECT_EQ(report.at("scale").at("name"), "paper");
  }
  EXPECT_EQ(runs, 2u);
  EXPECT_NE(read_file(out + "/sweep.json").find("\"--scale\""), std::string::npos);
}

// The Equalizer suite's generators (configs/workloads/cuda/equalizer/gen_paper.py):
// each program's paper-scale input, generated as its workload declares it, has
// the documented sizes (the description's facts, as README.md's "Paper scale"
// states them; the launch entries) and the same content digest on every
// machine. spmv and mummer take over 20 s: a reduced size always, the declared
// one with GPUPM_TEST_SCALE=paper. A deliberate change to a generator updates its row.
struct GeneratorCase {
  std::string program;
  std::vector<std::string> reduced;  // NAME=VALUE sizes replacing the declared arguments' (empty: as declared)
  std::string digest;                // generated_inputs_digest of the folder
  std::vector<std::string> facts;    // in the generated workload's description
  size_t launch_entries;
  bool slow;  // over 10 s to generate: only with GPUPM_TEST_SCALE=paper (its reduced row runs always)
};

// How ctest lists a case (gtest_discover_tests prints the parameter): its program.
void PrintTo(const GeneratorCase& c, std::ostream* os) {
  *os << c.program << (c.reduced.empty() ? "" : ", reduced sizes");
}

class EqualizerPaperGenerator : public ::testing::TestWithParam<GeneratorCase> {};

TEST_P(EqualizerPaperGenerator, SizesAndDigest) {
  const GeneratorCase& c = GetParam();
  const char* scale = std::getenv("GPUPM_TEST_SCALE");
  if (c.slow && !(scale && std::string(scale) == "paper")) GTEST_SKIP() << "over 10 s: GPUPM_TEST_SCALE=paper runs it";
  fresh_cache("gen_" + c.program);
  gpupm::ScaleGenerator g = gpupm::scale_generator(
      source_path("configs/workloads/cuda/equalizer/" + c.program + "/" + c.program + ".json"), "paper");
  if (!c.reduced.empty()) {
    g.args = {c.program};
    g.args.insert(g.args.end(), c.reduced.begin(), c.reduced.end());
    g.dir += "-reduced";
  }
  const std::string dir = gpupm::ensure_generated(g);
  EXPECT_EQ(gpupm::generated_inputs_digest(dir), c.digest);
  const gpupm::Json doc = gpupm::load_json_file(dir + "/workload.json");
  const std::string description = doc.at("description");
  for (const std::string& fact : c.facts)
    EXPECT_NE(description.find(fact), std::string::npos) << fact << " in " << description;
  EXPECT_EQ(doc.at("launches").size(), c.launch_entries);
}

INSTANTIATE_TEST_SUITE_P(
    PaperScale, EqualizerPaperGenerator,
    ::testing::Values(
        GeneratorCase{
            "spmv", {"rows=2000", "repeats=3"}, "e03a88c7dbd91b41", {"rows 2000", "jds_entries 50176"}, 1, false},
        GeneratorCase{"mummer",
                      {"ref_length=4096", "reads=1000", "read_length=40"},
                      "753d2f4f13565b15",
                      {"reference 4096", "reads 1000"},
                      1,
                      false},
        GeneratorCase{"backprop", {}, "6d3119c21786f80c", {"inputs 65536"}, 3, false},
        GeneratorCase{"bfs", {}, "12099ae0dd993aaa", {"nodes 1000000", "edges 5999812", "levels 12"}, 25, false},
        GeneratorCase{"cfd", {}, "4d3989694cec5e0b", {"elements 97032", "iterations 25"}, 200, false},
        GeneratorCase{"cutcp", {}, "90e903074e69f1ef", {"box_A 40", "lattice 80x80x78", "cutoff 12.0"}, 1, false},
        GeneratorCase{"histo", {}, "6b6be2e7aa11a087", {"values 1035840", "bins 65536", "iterations 20"}, 80, false},
        GeneratorCase{
            "kmeans", {}, "6782d97c4a8bb710", {"points 345814", "k 5", "loop_iterations 5", "iterations 3"}, 6, false},
        GeneratorCase{"lavaMD", {}, "e14e110c2bb48d04", {"boxes 1000"}, 1, false},
        GeneratorCase{"lbm", {}, "9ea4e790ae768f1a", {"lattice 120x120x150", "steps 6"}, 7, false},
        GeneratorCase{"leukocyte", {}, "71f8517e4e173727", {"frame 544x408"}, 2, false},
        GeneratorCase{"mri-gridding", {}, "802c8be0f0c6812c", {"samples 262144", "grid 64^3"}, 4, false},
        GeneratorCase{"mri-q", {}, "b64c6bafc2a71d32", {"voxels 32768", "samples 3072"}, 4, false},
        GeneratorCase{
            "mummer", {}, "49dedf1eeda23899", {"reference 5227293", "reads 163840", "read_length 100"}, 1, true},
        GeneratorCase{"particlefilter", {}, "b16f219608706034", {"particles 1000", "frames 10"}, 36, false},
        GeneratorCase{"pathfinder", {}, "2bc49e3c3a201d3f", {"cols 100000", "rows 100", "pyramid 20"}, 5, false},
        GeneratorCase{"sad", {}, "3c597ce88ef40c87", {"frame 640x480", "macroblocks 1200"}, 3, false},
        GeneratorCase{"sgemm", {}, "d8dcefdd66c2645c", {"m 1024", "n 1056", "k 992"}, 1, false},
        GeneratorCase{"spmv", {}, "f9071606abb21c03", {"rows 146689", "jds_entries 3601344", "repeats 44"}, 1, true},
        GeneratorCase{"stencil", {}, "e2e39fe26210e400", {"grid 512x512x64", "iterations 12"}, 12, false},
        GeneratorCase{"streamcluster", {}, "fd451c2155038a12", {"points 65536", "dim 256", "calls 24"}, 24, false}),
    [](const ::testing::TestParamInfo<GeneratorCase>& info) {
      std::string name = info.param.program + (info.param.reduced.empty() ? "" : "_reduced");
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });
