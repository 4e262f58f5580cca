// The Equalizer suite (configs/workloads/cuda/equalizer/): our own CUDA versions of
// the programs of Equalizer's Table II, each run end to end on the GTX 480 model
// with every buffer dumped before the first launch and after the last; the host
// recomputes the outputs from the dumped inputs. Integers must match exactly.
// Float tolerances are the standard rounding-error bounds (a float sum of n terms
// is off by at most gamma_n * sum|terms|, gamma_n = n * 2^-24 / (1 - n * 2^-24)),
// stated and derived where used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <queue>
#include <vector>

#include "support/program_check.h"

using gpupm::test::kU;
using gpupm::test::Mismatches;
using gpupm::test::ProgramRun;

namespace {

// gamma_n doubled: the float rounding-error bound for a depth-n chain, with margin.
double gamma2(double n) { return 2.0 * n * kU / (1.0 - n * kU); }

}  // namespace

// Rows are advanced pyramid by pyramid; the costs only depend on the recurrence
// cost[r][c] = wall[r][c] + min(cost[r-1][c-1 .. c+1]) (neighbours off the grid left out).
TEST(CudaEqualizerSuite, pathfinder) {
  ProgramRun run("equalizer/pathfinder");
  RUN_OR_FAIL(run);
  std::vector<int32_t> wall = run.initial<int32_t>("wall"), cost = run.initial<int32_t>("result_a");
  const int cols = run.arg(0, 4).get<int>();
  int steps = 0;
  for (size_t l = 0; l < run.launch_count(); ++l) steps += run.arg(l, 0).get<int>();
  ASSERT_EQ(wall.size(), size_t(steps) * size_t(cols));
  std::vector<int32_t> next(cost.size());
  for (int r = 0; r < steps; ++r) {
    for (int c = 0; c < cols; ++c) {
      int best = cost[size_t(c)];
      if (c > 0) best = std::min(best, cost[size_t(c - 1)]);
      if (c + 1 < cols) best = std::min(best, cost[size_t(c + 1)]);
      next[size_t(c)] = best + wall[size_t(r) * size_t(cols) + size_t(c)];
    }
    cost.swap(next);
  }
  // An odd number of launches leaves the result in result_b.
  ASSERT_EQ(run.launch_count() % 2, 1u);
  std::vector<int32_t> got = run.final<int32_t>("result_b");
  Mismatches m("result_b");
  for (size_t i = 0; i < got.size(); ++i) m.exact(i, got[i], cost[i]);
}
