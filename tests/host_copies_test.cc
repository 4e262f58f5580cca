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
}

}  // namespace
