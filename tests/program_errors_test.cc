// Program workloads from the user's side: what `run`, `validate` and `ptx`
// say about a kernel that faults, a launch that never settles, and bad input
// (exit 2 naming the file and JSON path, before anything runs).
#include <gtest/gtest.h>

#include "support/bump_ptx.h"
#include "support/test_support.h"

#include <filesystem>
#include <fstream>

using gpupm::test::run_gpupm;
using gpupm::test::source_path;
using gpupm::test::temp_dir;

namespace {

// One kernel: each thread adds 1 to a[tid].
const std::string kPtx = std::string(gpupm::test::kPtxHeader) + gpupm::test::kBumpPtx;

struct Case {
  std::string dir;
  std::string workload;  // path of the workload file
  int status = -1;
  std::string output;
};

// Writes bump.ptx and a workload with `buffers` and `launches`, then runs `command`.
Case run_case(const std::string& tag, const std::string& buffers, const std::string& launches,
              const std::string& command = "run") {
  Case c;
  c.dir = temp_dir(tag);
  std::ofstream(c.dir + "/bump.ptx") << kPtx;
  c.workload = c.dir + "/w.json";
  std::ofstream(c.workload) << R"({"name": "w", "program": "bump.ptx", "buffers": )" << buffers << R"(, "launches": )"
                            << launches << "}";
  const std::string args = command == "run" ? "run --quiet --gpu " + source_path("configs/gpu/gtx480.json") +
                                                  " --workload " + c.workload + " --out " + c.dir + "/out"
                                            : command + " " + c.workload;
  c.status = run_gpupm(args, &c.output);
  return c;
}

const std::string kBuffer = R"({"a": {"type": "u32", "count": 64}})";

}  // namespace

TEST(ProgramErrors, OutOfBoundsAccessNamesTheLaneAndAddress) {
  Case c = run_case("oob", R"({"a": {"type": "u32", "count": 40}})",
                    R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1]}])");
  EXPECT_EQ(c.status, 1) << c.output;
  EXPECT_NE(c.output.find("kernel bump: CTA 0 (0,0,0) warp 1 lane 8: PC 5 ("), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("bump.ptx:13): ld.global.u32 address 0x100000a0: outside every buffer"), std::string::npos)
      << c.output;
  EXPECT_FALSE(std::filesystem::exists(c.dir + "/out/report.json"));
}

TEST(ProgramErrors, WhileNonzeroThatNeverSettlesIsARunFailure) {
  Case c = run_case("while", kBuffer,
                    R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1],
                         "while_nonzero": {"buffer": "a", "max": 3}}])");
  EXPECT_EQ(c.status, 1) << c.output;
  EXPECT_NE(c.output.find("launches[0] (kernel bump): while_nonzero buffer \"a\" is still non-zero after 3 launches"),
            std::string::npos)
      << c.output;
}

TEST(ProgramErrors, BadLaunchesAreExit2WithTheirPath) {
  const struct {
    std::string launches, message;
  } cases[] = {
      {R"([{"kernel": "nope", "grid": [1], "block": [64], "args": ["a", 1]}])",
       "launches[0].kernel: no .entry named \"nope\""},
      {R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["a"]}])",
       "launches[0].args: expected an array of 2 values"},
      {R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["b", 1]}])",
       "launches[0].args[0]: no buffer named \"b\""},
      {R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1.5]}])",
       "launches[0].args[1]: expected an integer"},
      {R"([{"kernel": "bump", "grid": [0], "block": [64], "args": ["a", 1]}])", "launches[0].grid"},
      {R"([{"kernel": "bump", "grid": [1], "block": [2048], "args": ["a", 1]}])", "launches[0].block"},
      {R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1], "shared_bytes": 64}])",
       "launches[0].shared_bytes: kernel bump declares no extern __shared__ array"},
      {R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1], "repeat": 2,
            "while_nonzero": {"buffer": "a", "max": 3}}])",
       "give either repeat or while_nonzero"},
  };
  int i = 0;
  for (const auto& bad : cases) {
    Case c = run_case("bad" + std::to_string(i++), kBuffer, bad.launches);
    EXPECT_EQ(c.status, 2) << bad.launches << "\n" << c.output;
    EXPECT_NE(c.output.find(c.workload), std::string::npos) << c.output;
    EXPECT_NE(c.output.find(bad.message), std::string::npos) << c.output;
    EXPECT_FALSE(std::filesystem::exists(c.dir + "/out/report.json"));
  }
}

TEST(ProgramErrors, BadBuffersAreExit2WithTheirPath) {
  const std::string launch = R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1]}])";
  const struct {
    std::string buffers, message;
  } cases[] = {
      {R"({"a": {"type": "f16", "count": 64}})", "buffers.a.type"},
      {R"({"a": {"type": "u32", "count": 0}})", "buffers.a.count"},
      {R"({"a": {"type": "u32", "count": 64, "init": {"fill": -1}}})",
       "buffers.a.init.fill: expected an integer in [0, 4294967295]"},
      {R"({"a": {"type": "u8", "count": 64, "init": {"fill": 256}}})", "buffers.a.init.fill"},
      {R"({"a": {"type": "u32", "count": 64, "init": {"random": {"min": 5, "max": 1, "seed": 1}}}})",
       "expected max >= min"},
      {R"({"a": {"type": "u32", "count": 64, "init": {"file": "missing.npy"}}})", "No such file"},
      {R"({"a": {"type": "u32", "count": 64, "init": {"fill": 1, "iota": {"start": 0, "step": 1}}}})",
       "exactly one of"},
  };
  int i = 0;
  for (const auto& bad : cases) {
    Case c = run_case("buf" + std::to_string(i++), bad.buffers, launch);
    EXPECT_EQ(c.status, 2) << bad.buffers << "\n" << c.output;
    EXPECT_NE(c.output.find(bad.message), std::string::npos) << c.output;
  }
}

TEST(ProgramErrors, PtxSyntaxErrorNamesFileLineColumn) {
  Case c;
  c.dir = temp_dir("syntax");
  std::ofstream(c.dir + "/bad.ptx") << ".version 6.4\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n"
                                       "frobnicate.u32 %r1;\nret;\n}\n";
  std::ofstream(c.dir + "/w.json")
      << R"({"name": "w", "program": "bad.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [32], "args": []}]})";
  c.status = run_gpupm("validate " + c.dir + "/w.json", &c.output);
  EXPECT_EQ(c.status, 2) << c.output;
  EXPECT_NE(c.output.find("bad.ptx:6:1"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("frobnicate"), std::string::npos) << c.output;
}

TEST(ProgramErrors, ValidateAndPtxListAProgram) {
  Case c = run_case("validate", kBuffer, R"([{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1]}])",
                    "validate");
  EXPECT_EQ(c.status, 0) << c.output;
  EXPECT_NE(c.output.find("ok (program workload)"), std::string::npos) << c.output;
  std::string listing;
  EXPECT_EQ(run_gpupm("ptx " + c.dir + "/bump.ptx", &listing), 0) << listing;
  EXPECT_NE(listing.find("bump(u64 p0, u32 p1)"), std::string::npos) << listing;
  EXPECT_NE(listing.find("ld.global 1"), std::string::npos) << listing;
}

// A while_nonzero flag is tested as a value of its type: a float flag of -0.0
// is zero (its bits are not), so the loop ends after one launch.
TEST(ProgramErrors, FloatWhileFlagOfNegativeZeroEndsTheLoop) {
  const std::string dir = temp_dir("negzero");
  std::ofstream(dir + "/negzero.ptx") << R"(.version 6.4
.target sm_70
.address_size 64
.visible .entry negzero(.param .u64 p0)
{
.reg .f32 %f<2>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [p0];
mov.f32 %f1, 0f80000000;
st.global.f32 [%rd1], %f1;
ret;
}
)";
  std::ofstream(dir + "/w.json") << R"({"name": "w", "program": "negzero.ptx",
    "buffers": {"flag": {"type": "f32", "count": 1}},
    "launches": [{"kernel": "negzero", "grid": [1], "block": [1], "args": ["flag"],
                  "while_nonzero": {"buffer": "flag", "max": 3}}]})";
  std::string output;
  const int status = run_gpupm("run --quiet --gpu " + source_path("configs/gpu/gtx480.json") + " --workload " + dir +
                                   "/w.json --out " + dir + "/out",
                               &output);
  ASSERT_EQ(status, 0) << output;
  EXPECT_NE(output.find("negzero#0 "), std::string::npos) << output;  // the summary table's rows
  EXPECT_EQ(output.find("negzero#1 "), std::string::npos) << "launched again on -0.0:\n" << output;
}
