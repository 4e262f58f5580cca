// A program's host copies (KernelLaunch::host_copies), which the L2 takes with
// memory.l2_copy_fill: every buffer before the first launch, a while_nonzero
// flag before each launch of its loop, nothing before the others.
#include <gtest/gtest.h>

#include "gpupm/common/json_reader.h"
#include "gpupm/program/program_workload.h"
#include "support/bump_ptx.h"
#include "support/test_support.h"

namespace {

using gpupm::test::temp_dir;
using gpupm::test::write_file;

TEST(HostCopies, EveryBufferBeforeTheFirstLaunchAndTheFlagBeforeEachLoopLaunch) {
  const std::string dir = temp_dir("host_copies");
  write_file(dir + "/bump.ptx", std::string(gpupm::test::kPtxHeader) + gpupm::test::kBumpPtx);
  const std::string file = write_file(dir + "/w.json", R"({"name": "w", "program": "bump.ptx",
      "buffers": {"a": {"type": "u32", "count": 64}, "flag": {"type": "u32", "count": 1}},
      "launches": [{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1], "repeat": 2},
                   {"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1],
                    "while_nonzero": {"buffer": "flag", "max": 3}}]})");
  gpupm::Workload w = gpupm::load_program_workload(gpupm::load_json_file(file), file, file, gpupm::SmConfig());
  gpupm::LaunchSource& host = *w.apps.at(0).source;
  auto first = host.next(), second = host.next(), loop = host.next();
  ASSERT_TRUE(first && second && loop);
  ASSERT_EQ(first->host_copies.size(), 2u);
  EXPECT_EQ(first->host_copies[0].second, 64u * 4);  // a, then flag: in the buffers' order
  EXPECT_EQ(first->host_copies[1].second, 4u);
  EXPECT_NE(first->host_copies[0].first, first->host_copies[1].first);
  EXPECT_TRUE(second->host_copies.empty());
  ASSERT_EQ(loop->host_copies.size(), 1u);  // the flag zeroed before the loop's launch
  EXPECT_EQ(loop->host_copies[0], first->host_copies[1]);
  EXPECT_EQ(host.next(), nullptr);  // the flag stayed zero: the loop ends
  auto again = host.next();         // a workload run again starts over: every buffer copied again
  ASSERT_TRUE(again);
  EXPECT_EQ(again->host_copies, first->host_copies);
}

// End to end: with memory.l2_copy_fill the first launch finds the buffer it reads in the L2.
TEST(HostCopies, TheFirstLaunchHitsTheCopiedBufferOnlyWithCopyFill) {
  const std::string dir = temp_dir("host_copies_run");
  write_file(dir + "/bump.ptx", std::string(gpupm::test::kPtxHeader) + gpupm::test::kBumpPtx);
  const std::string file = write_file(dir + "/w.json", R"({"name": "w", "program": "bump.ptx",
      "buffers": {"a": {"type": "u32", "count": 64}},
      "launches": [{"kernel": "bump", "grid": [1], "block": [64], "args": ["a", 1]}]})");
  auto l2_hits = [&](const std::string& fill) {
    const std::string out = dir + "/out_" + fill;
    std::string output;
    const int status =
        gpupm::test::run_gpupm("run --quiet --gpu " + gpupm::test::source_path("configs/gpu/gtx480.json") +
                                   " --workload " + file + " --set gpu.memory.l2_copy_fill=" + fill + " --out " + out,
                               &output);
    EXPECT_EQ(status, 0) << output;
    return gpupm::load_json_file(out + "/report.json").at("total").at("l2_hit_rate").get<double>();
  };
  EXPECT_EQ(l2_hits("false"), 0.0);  // a cold L2: every lookup misses
  EXPECT_GT(l2_hits("true"), 0.5);   // a's two lines hit
}

}  // namespace
