// The paper-scale inputs of the core shut-down, Harmonia, voltage-noise and
// SM-allocation suites (configs/workloads/cuda/<suite>/gen_paper.py; the protocol is
// program/workload_scale.h): each program's generator, run with the arguments
// its ci workload declares, writes the sizes the suite README's "Paper scale"
// states (the facts ending the generated description; the launch entries) and
// the same bytes on every machine (the content digest). Generation only, no
// simulation: 0.2-2.5 s a program, about 20 s in all. A deliberate change to a
// generator, or to a cut in a workload's "args", updates its row.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "gpupm/common/json_reader.h"
#include "gpupm/program/workload_scale.h"
#include "support/test_support.h"

using gpupm::test::source_path;
using gpupm::test::temp_dir;

namespace {

struct SuiteGeneratorCase {
  std::string program;  // <suite>/<program>: the ci workload <suite>/<program>/<program>.json
  std::string facts;    // what the generated workload's description ends with, in brackets
  std::string digest;   // generated_inputs_digest of the folder
  size_t launch_entries;
};

void PrintTo(const SuiteGeneratorCase& c, std::ostream* os) { *os << c.program; }

std::string stem_of(const std::string& program) { return program.substr(program.find('/') + 1); }

std::string workload_of(const std::string& program) {
  return source_path("configs/workloads/cuda/" + program + "/" + stem_of(program) + ".json");
}

class SuitePaperGenerator : public ::testing::TestWithParam<SuiteGeneratorCase> {};

TEST_P(SuitePaperGenerator, SizesAndDigest) {
  const SuiteGeneratorCase& c = GetParam();
  ::setenv("GPUPM_CACHE_DIR", temp_dir("suites_" + stem_of(c.program)).c_str(), 1);
  const gpupm::ScaleGenerator g = gpupm::scale_generator(workload_of(c.program), "paper");
  ASSERT_EQ(std::filesystem::path(g.generator).filename(), "gen_paper.py") << c.program;
  ASSERT_EQ(g.args.at(0), stem_of(c.program));
  const std::string dir = gpupm::ensure_generated(g);
  const gpupm::Json doc = gpupm::load_json_file(dir + "/workload.json");
  const std::string description = doc.at("description");
  EXPECT_EQ(description.substr(description.rfind('[')), "[" + c.facts + "]") << description;
  EXPECT_EQ(doc.at("launches").size(), c.launch_entries);
  EXPECT_EQ(gpupm::generated_inputs_digest(dir), c.digest) << c.program;
  std::filesystem::remove_all(dir);  // up to 33 MB a program
}

const std::vector<SuiteGeneratorCase>& cases() {
  static const std::vector<SuiteGeneratorCase> all = {
      SuiteGeneratorCase{"core_shutdown/lib", "paths 4096", "4835406ff34fcc40", 1},
      SuiteGeneratorCase{"core_shutdown/mst", "nodes 264196, edges 366434, rounds 9", "7b39205ee4ddfe96", 45},
      SuiteGeneratorCase{"core_shutdown/pvc", "lines 524288, sort_steps 190", "295b735fa2b8ff91", 192},
      SuiteGeneratorCase{"core_shutdown/pvr", "lines 524288, sort_steps 190", "5726a5d975981838", 192},
      SuiteGeneratorCase{"core_shutdown/sp", "variables 10000, clauses 42000, max_sweeps 6", "829e09777a110c73", 3},
      SuiteGeneratorCase{"core_shutdown/sssp", "nodes 264196, arcs 734140, reached 260421, source 132355",
                         "5bfff77dc50c9ece", 2},
      SuiteGeneratorCase{"harmonia/bpt", "records 1048576, order 64, height 4, queries 50000", "0b690f9b2fdf60ac", 8},
      SuiteGeneratorCase{"harmonia/comd", "atoms 32000, steps 20", "15f0b5171f9734e9", 81},
      SuiteGeneratorCase{"harmonia/device_memory", "words 8388608, threads 32768, passes 10", "261a11e186bfbc11", 2},
      SuiteGeneratorCase{"harmonia/graph500", "scale 14, edge_factor 16, entries 426402, roots 64, steps 425",
                         "a2e18727e4411b2d", 489},
      SuiteGeneratorCase{"harmonia/lud", "n 1024, block_steps 64", "5ab4e7bb6edc15c2", 190},
      SuiteGeneratorCase{"harmonia/maxflops", "threads 524288, passes 10", "74f071944fbce627", 2},
      SuiteGeneratorCase{"harmonia/minife", "rows 262144, iterations 20", "a81f7f0d53df35b1", 143},
      SuiteGeneratorCase{"harmonia/sort", "keys 262144, passes 5", "6a4e67928e708114", 120},
      SuiteGeneratorCase{"harmonia/srad", "image 502x458, iterations 20", "b96e06311999b3aa", 100},
      SuiteGeneratorCase{"harmonia/xsbench", "nuclides 68, points 11303, lookups 50000, iterations 2",
                         "2923c15ce1ef33d9", 3},
      SuiteGeneratorCase{"voltage_noise/binomial_options", "options 1024, steps 512", "aaac8c0b7a519fe0", 1},
      SuiteGeneratorCase{"voltage_noise/blackscholes", "options 4000000, iterations 20", "dda2e26dde0b86be", 1},
      SuiteGeneratorCase{"voltage_noise/convolution_separable", "image 3072x3072, passes 3", "1ff7d5790f35708e", 6},
      SuiteGeneratorCase{"voltage_noise/convolution_texture", "image 3072x1536, passes 3", "5db2387cde0c5db7", 6},
      SuiteGeneratorCase{"voltage_noise/dct8x8", "image 512x512, forward 10", "28c6221d6e09f444", 3},
      SuiteGeneratorCase{"voltage_noise/nn", "records 42764", "0e3af5a7198c5224", 1},
      SuiteGeneratorCase{"sm_allocation/gups", "log_size 25, updates 16777216, threads 262144", "1f019d47e6513b9c", 1},
      SuiteGeneratorCase{"sm_allocation/hotspot", "grid 1024x1024, pyramid_height 2, iterations 2", "5cc09d577dec006a",
                         1}};
  return all;
}

INSTANTIATE_TEST_SUITE_P(PaperScale, SuitePaperGenerator, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<SuiteGeneratorCase>& info) {
                           return stem_of(info.param.program);
                         });

// Every program folder of the four suites has its row above, so a program
// added without a paper scale fails here.
TEST(PaperScaleSuites, EveryProgramHasAGeneratorRow) {
  std::set<std::string> rows, folders;
  for (const SuiteGeneratorCase& c : cases()) rows.insert(c.program);
  for (const std::string suite : {"core_shutdown", "harmonia", "voltage_noise", "sm_allocation"})
    for (const auto& entry : std::filesystem::directory_iterator(source_path("configs/workloads/cuda/" + suite)))
      if (entry.is_directory()) folders.insert(suite + "/" + entry.path().filename().string());
  EXPECT_EQ(rows, folders);
}

// The SM-allocation experiment's own cuts (configs/experiments/sm_allocation_real.json,
// "paper_args", replacing the shared workloads' for that experiment only): each
// program's input generated with them has the sizes and the first launch's CTAs
// the config's comments state (at least 4 waves on 60 SMs where paper scale has
// them) and its digest. spmv's JDS packing takes 15 s: with GPUPM_TEST_SCALE=paper.
struct PaperArgsCase {
  std::string program, facts, digest;
  size_t launch_entries;
  int first_launch_ctas;
  bool slow;
};

void PrintTo(const PaperArgsCase& c, std::ostream* os) { *os << c.program; }

// Each program of the experiment's config that gives paper_args: its workload file and those arguments.
std::map<std::string, std::pair<std::string, std::vector<std::string>>> experiment_paper_args() {
  const gpupm::Json config = gpupm::load_json_file(source_path("configs/experiments/sm_allocation_real.json"));
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> out;
  for (const gpupm::Json& p : config.at("programs")) {
    if (!p.contains("paper_args")) continue;
    const std::string name = p.at("name"), dir = p.value("suite_dir", config.at("suite_dir").get<std::string>());
    out[name] = {source_path(dir + "/" + name + "/" + name + ".json"), p.at("paper_args")};
  }
  return out;
}

class SmAllocationPaperArgs : public ::testing::TestWithParam<PaperArgsCase> {};

TEST_P(SmAllocationPaperArgs, SizesAndDigest) {
  const PaperArgsCase& c = GetParam();
  const char* scale = std::getenv("GPUPM_TEST_SCALE");
  if (c.slow && !(scale && std::string(scale) == "paper")) GTEST_SKIP() << "over 10 s: GPUPM_TEST_SCALE=paper runs it";
  ::setenv("GPUPM_CACHE_DIR", temp_dir("sma_args_" + c.program).c_str(), 1);
  const auto [file, args] = experiment_paper_args().at(c.program);
  const gpupm::ScaleGenerator g = gpupm::scale_generator(gpupm::workload_with_paper_args(file, args), "paper");
  ASSERT_EQ(g.args, args);
  const std::string dir = gpupm::ensure_generated(g);
  const gpupm::Json doc = gpupm::load_json_file(dir + "/workload.json");
  const std::string description = doc.at("description");
  EXPECT_EQ(description.substr(description.rfind('[')), "[" + c.facts + "]") << description;
  ASSERT_EQ(doc.at("launches").size(), c.launch_entries);
  int ctas = 1;
  for (const gpupm::Json& d : doc.at("launches").at(0).at("grid")) ctas *= d.get<int>();
  EXPECT_EQ(ctas, c.first_launch_ctas);
  EXPECT_EQ(gpupm::generated_inputs_digest(dir), c.digest) << c.program;
  std::filesystem::remove_all(dir);
}

const std::vector<PaperArgsCase>& paper_args_cases() {
  static const std::vector<PaperArgsCase> all = {
      {"gups", "log_size 25, updates 2097152, threads 262144", "6643f5efe1b6771f", 1, 2048, false},
      {"blackscholes", "options 4000000, iterations 3", "030ba4caea0c25e9", 1, 480, false},
      {"spmv", "rows 146689, jds_entries 3601344, repeats 3", "be89f3a186b7a052", 1, 765, true},
      {"kmeans", "points 184320, k 5, loop_iterations 6, iterations 3", "cb9b5283e27a1230", 6, 720, false},
      {"bfs", "nodes 368640, edges 2211548, levels 11", "9d3f226259cb2fa5", 23, 720, false},
      {"srad", "image 502x458, iterations 3", "f67a303dfbb1ff1b", 15, 899, false},
      {"streamcluster", "points 65536, dim 256, calls 3", "336f158775407c09", 3, 128, false},
      {"maxflops", "threads 524288, passes 3", "bd10f1ea60fd5927", 2, 4096, false},
      {"device_memory", "words 8388608, threads 32768, passes 3", "9ec21d732839efab", 2, 128, false}};
  return all;
}

INSTANTIATE_TEST_SUITE_P(PaperScale, SmAllocationPaperArgs, ::testing::ValuesIn(paper_args_cases()),
                         [](const ::testing::TestParamInfo<PaperArgsCase>& info) { return info.param.program; });

// Every program the experiment's config cuts has its row above.
TEST(PaperScaleSuites, EverySmAllocationPaperArgsHasARow) {
  std::set<std::string> rows, cut;
  for (const PaperArgsCase& c : paper_args_cases()) rows.insert(c.program);
  for (const auto& [name, entry] : experiment_paper_args()) cut.insert(name);
  EXPECT_EQ(rows, cut);
}

}  // namespace
