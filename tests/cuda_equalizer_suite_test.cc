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

// Integer SADs: every 4x4 SAD at every displacement (reference clamped at the
// frame's edges), then the 8x8/8x4/4x8 and 16x16/16x8/8x16 sums, all exact.
TEST(CudaEqualizerSuite, sad) {
  ProgramRun run("equalizer/sad");
  RUN_OR_FAIL(run);
  const int width = run.arg(0, 3).get<int>(), height = run.arg(0, 4).get<int>();
  constexpr int kRange = 16, kSide = 33, kPositions = kSide * kSide;
  std::vector<uint32_t> cur = run.initial<uint32_t>("cur"), ref = run.initial<uint32_t>("ref");
  const int mbs_x = width / 16, mbs = mbs_x * (height / 16);
  auto pixel = [&](const std::vector<uint32_t>& f, int y, int x) {
    return int(f[size_t(std::clamp(y, 0, height - 1) * width + std::clamp(x, 0, width - 1))]);
  };
  std::vector<uint32_t> sad4(size_t(mbs) * 16 * kPositions);
  for (int mb = 0; mb < mbs; ++mb)
    for (int sub = 0; sub < 16; ++sub)
      for (int p = 0; p < kPositions; ++p) {
        const int y0 = (mb / mbs_x) * 16 + (sub / 4) * 4, x0 = (mb % mbs_x) * 16 + (sub % 4) * 4;
        const int dy = p / kSide - kRange, dx = p % kSide - kRange;
        int sad = 0;
        for (int j = 0; j < 4; ++j)
          for (int i = 0; i < 4; ++i) sad += std::abs(pixel(ref, y0 + dy + j, x0 + dx + i) - pixel(cur, y0 + j, x0 + i));
        sad4[(size_t(mb) * 16 + size_t(sub)) * kPositions + size_t(p)] = uint32_t(sad);
      }
  std::vector<uint32_t> got4 = run.final<uint32_t>("sad4"), got8 = run.final<uint32_t>("sad8"),
                        got16 = run.final<uint32_t>("sad16");
  Mismatches m4("sad4"), m8("sad8"), m16("sad16");
  for (size_t i = 0; i < sad4.size(); ++i) m4.exact(i, got4[i], sad4[i]);
  for (int mb = 0; mb < mbs; ++mb)
    for (int p = 0; p < kPositions; ++p) {
      auto s = [&](int row, int col) { return sad4[(size_t(mb) * 16 + size_t(row * 4 + col)) * kPositions + size_t(p)]; };
      auto at8 = [&](int part) { return (size_t(mb) * 20 + size_t(part)) * kPositions + size_t(p); };
      auto at16 = [&](int part) { return (size_t(mb) * 5 + size_t(part)) * kPositions + size_t(p); };
      uint32_t quadrant[4];
      for (int q = 0; q < 4; ++q) {
        const int r = 2 * (q / 2), c = 2 * (q % 2);
        quadrant[q] = s(r, c) + s(r, c + 1) + s(r + 1, c) + s(r + 1, c + 1);
        m8.exact(at8(q), got8[at8(q)], quadrant[q]);
      }
      for (int k = 0; k < 4; ++k)
        for (int h = 0; h < 2; ++h) {
          m8.exact(at8(4 + 2 * k + h), got8[at8(4 + 2 * k + h)], s(k, 2 * h) + s(k, 2 * h + 1));  // 8 wide x 4 tall
          m8.exact(at8(12 + 2 * k + h), got8[at8(12 + 2 * k + h)], s(2 * h, k) + s(2 * h + 1, k));  // 4 wide x 8 tall
        }
      const uint32_t want16[5] = {quadrant[0] + quadrant[1] + quadrant[2] + quadrant[3], quadrant[0] + quadrant[1],
                                  quadrant[2] + quadrant[3], quadrant[0] + quadrant[2], quadrant[1] + quadrant[3]};
      for (int part = 0; part < 5; ++part) m16.exact(at16(part), got16[at16(part)], want16[part]);
    }
}

// C = alpha A B + beta C: each element a K-term fma chain, then two products and
// an add (perhaps contracted): |error| <= gamma_(K+3) (|alpha| sum|a b| + |beta c|), doubled.
TEST(CudaEqualizerSuite, sgemm) {
  ProgramRun run("equalizer/sgemm");
  RUN_OR_FAIL(run);
  const int m = run.arg(0, 3).get<int>(), n = run.arg(0, 4).get<int>(), k = run.arg(0, 5).get<int>();
  const double alpha = run.arg(0, 6).get<double>(), beta = run.arg(0, 7).get<double>();
  std::vector<float> a = run.initial<float>("a"), b = run.initial<float>("b"), c = run.initial<float>("c");
  std::vector<float> got = run.final<float>("c");
  Mismatches mm("c");
  for (int col = 0; col < n; ++col)
    for (int row = 0; row < m; ++row) {
      double dot = 0, magnitude = 0;
      for (int d = 0; d < k; ++d) {
        const double term = double(a[size_t(d) * m + row]) * double(b[size_t(d) * n + col]);
        dot += term;
        magnitude += std::fabs(term);
      }
      const size_t i = size_t(col) * m + row;
      const double want = alpha * dot + beta * c[i];
      mm.near(i, got[i], want, gamma2(k + 3) * (std::fabs(alpha) * magnitude + std::fabs(beta * c[i])));
    }
}
