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
#include <cstring>
#include <queue>
#include <vector>

#include "support/program_check.h"

using gpupm::test::kU;
using gpupm::test::Mismatches;
using gpupm::test::ProgramRun;
using gpupm::test::sigmoid;

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
          for (int i = 0; i < 4; ++i)
            sad += std::abs(pixel(ref, y0 + dy + j, x0 + dx + i) - pixel(cur, y0 + j, x0 + i));
        sad4[(size_t(mb) * 16 + size_t(sub)) * kPositions + size_t(p)] = uint32_t(sad);
      }
  std::vector<uint32_t> got4 = run.final<uint32_t>("sad4"), got8 = run.final<uint32_t>("sad8"),
                        got16 = run.final<uint32_t>("sad16");
  Mismatches m4("sad4"), m8("sad8"), m16("sad16");
  for (size_t i = 0; i < sad4.size(); ++i) m4.exact(i, got4[i], sad4[i]);
  for (int mb = 0; mb < mbs; ++mb)
    for (int p = 0; p < kPositions; ++p) {
      auto s = [&](int row, int col) {
        return sad4[(size_t(mb) * 16 + size_t(row * 4 + col)) * kPositions + size_t(p)];
      };
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
          m8.exact(at8(4 + 2 * k + h), got8[at8(4 + 2 * k + h)], s(k, 2 * h) + s(k, 2 * h + 1));    // 8 wide x 4 tall
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

namespace {

// D3Q19 as lbm.cu spells it: velocities, opposite directions, weights.
constexpr int kLbmQ = 19;
constexpr int kLbmEx[kLbmQ] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
constexpr int kLbmEy[kLbmQ] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
constexpr int kLbmEz[kLbmQ] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
constexpr int kLbmOpposite[kLbmQ] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
float lbm_weight(int e) { return e == 0 ? 1.f / 3 : (e < 7 ? 1.f / 18 : 1.f / 36); }

// Adds or subtracts v by the sign of a velocity component (0: unchanged), as the kernel does.
float signed_add(float acc, int component, float v) {
  return component == 0 ? acc : (component > 0 ? acc + v : acc - v);
}

// One BGK collision of a fluid cell, operation for operation as lbm_stream_collide.
void lbm_collide(float* f, float omega) {
  float rho = 0.0f, mx = 0.0f, my = 0.0f, mz = 0.0f;
  for (int e = 0; e < kLbmQ; ++e) {
    rho += f[e];
    mx = signed_add(mx, kLbmEx[e], f[e]);
    my = signed_add(my, kLbmEy[e], f[e]);
    mz = signed_add(mz, kLbmEz[e], f[e]);
  }
  const float ux = mx / rho, uy = my / rho, uz = mz / rho;
  const float one_minus_u2 = std::fma(-1.5f, std::fma(ux, ux, std::fma(uy, uy, uz * uz)), 1.0f);
  for (int e = 0; e < kLbmQ; ++e) {
    const float eu = signed_add(signed_add(signed_add(0.0f, kLbmEx[e], ux), kLbmEy[e], uy), kLbmEz[e], uz);
    const float shape = std::fma(4.5f * eu, eu, std::fma(3.0f, eu, one_minus_u2));
    f[e] = std::fma(-omega, std::fma(-(lbm_weight(e) * rho), shape, f[e]), f[e]);
  }
}

}  // namespace

// Every operation of the kernels is correctly rounded (add, mul, div.rn, explicit
// fma) and spelled out in one order, so the lattice must match bit for bit.
TEST(CudaEqualizerSuite, lbm) {
  ProgramRun run("equalizer/lbm");
  RUN_OR_FAIL(run);
  // lbm.json: block NX, grid (NY, NZ); the flags' count checks it
  const int nx = run.launch(0).at("block")[0], ny = run.launch(0).at("grid")[0], nz = run.launch(0).at("grid")[1];
  const int cells = nx * ny * nz;
  const float u0 = run.arg(0, 2).get<float>();
  std::vector<uint32_t> flags = run.initial<uint32_t>("flags");
  std::vector<float> noise = run.initial<float>("noise");
  ASSERT_EQ(flags.size(), size_t(cells));
  std::vector<float> src(size_t(cells) * kLbmQ), dst(src.size());
  for (int c = 0; c < cells; ++c)
    for (int e = 0; e < kLbmQ; ++e)
      src[size_t(e) * cells + c] =
          lbm_weight(e) * (1.0f + noise[size_t(c)]) * std::fma(3.0f * u0, float(kLbmEx[e]), 1.0f);
  auto wrap = [](int v, int n) { return (v + n) % n; };
  const size_t steps = run.launch_count() - 1;
  for (size_t step = 0; step < steps; ++step) {
    const float omega = run.arg(step + 1, 3).get<float>();
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          const int cell = (z * ny + y) * nx + x;
          float f[kLbmQ];
          for (int e = 0; e < kLbmQ; ++e) f[e] = src[size_t(e) * cells + cell];
          if (flags[size_t(cell)] == 0) {  // bounce-back: turn round, then stream
            float reflected[kLbmQ];
            for (int e = 0; e < kLbmQ; ++e) reflected[kLbmOpposite[e]] = f[e];
            std::copy(reflected, reflected + kLbmQ, f);
          } else {
            lbm_collide(f, omega);
          }
          for (int e = 0; e < kLbmQ; ++e) {
            const int to = (wrap(z + kLbmEz[e], nz) * ny + wrap(y + kLbmEy[e], ny)) * nx + wrap(x + kLbmEx[e], nx);
            dst[size_t(e) * cells + to] = f[e];
          }
        }
    src.swap(dst);
  }
  ASSERT_EQ(steps % 2, 0u);  // an even number of steps ends in f_a
  std::vector<float> got = run.final<float>("f_a");
  Mismatches m("f_a");
  for (size_t i = 0; i < got.size(); ++i) m.bits(i, got[i], src[i]);
}

// y = A x with A in JDS form: each row's products accumulated with fmaf in
// diagonal order (padding entries add fma(0, x[0], sum) = sum), so exact.
TEST(CudaEqualizerSuite, spmv) {
  ProgramRun run("equalizer/spmv");
  RUN_OR_FAIL(run);
  const int rows = run.arg(0, 7).get<int>();
  std::vector<float> data = run.initial<float>("data"), x = run.initial<float>("x");
  std::vector<int32_t> index = run.initial<int32_t>("index"), perm = run.initial<int32_t>("perm"),
                       jds_ptr = run.initial<int32_t>("jds_ptr"), warp_nnz = run.initial<int32_t>("warp_nnz");
  std::vector<float> want(size_t(rows), 0.0f);
  std::vector<int> seen(size_t(rows), 0);
  for (int row = 0; row < rows; ++row) {
    float sum = 0.0f;
    for (int k = 0; k < warp_nnz[size_t(row / 32)]; ++k) {
      const size_t j = size_t(jds_ptr[size_t(k)] + row);
      sum = std::fma(data[j], x[size_t(index[j])], sum);
    }
    want[size_t(perm[size_t(row)])] = sum;
    ++seen[size_t(perm[size_t(row)])];
  }
  ASSERT_EQ(std::count(seen.begin(), seen.end(), 1), rows) << "perm is not a permutation";
  std::vector<float> got = run.final<float>("y");
  Mismatches m("y");
  for (size_t i = 0; i < got.size(); ++i) m.bits(i, got[i], want[i]);
}

// The 7-point Jacobi steps: the sum in the kernel's order, then fma(sum, c1, -c0 * centre),
// every operation correctly rounded, so exact; the boundary keeps its initial values.
TEST(CudaEqualizerSuite, stencil) {
  ProgramRun run("equalizer/stencil");
  RUN_OR_FAIL(run);
  const float c0 = run.arg(0, 0).get<float>(), c1 = run.arg(0, 1).get<float>();
  const int nx = run.arg(0, 4).get<int>(), ny = run.arg(0, 5).get<int>(), nz = run.arg(0, 6).get<int>();
  std::vector<float> a = run.initial<float>("a"), b = run.initial<float>("b");
  ASSERT_EQ(a, b);  // the same boundary in both grids
  auto at = [&](int x, int y, int z) { return (size_t(z) * ny + y) * nx + x; };
  for (size_t l = 0; l < run.launch_count(); ++l) {
    const std::vector<float>& src = l % 2 == 0 ? a : b;
    std::vector<float>& dst = l % 2 == 0 ? b : a;
    for (int z = 1; z < nz - 1; ++z)
      for (int y = 1; y < ny - 1; ++y)
        for (int x = 1; x < nx - 1; ++x) {
          const float sum =
              ((((src[at(x, y, z - 1)] + src[at(x, y, z + 1)]) + src[at(x, y - 1, z)]) + src[at(x, y + 1, z)]) +
               src[at(x - 1, y, z)]) +
              src[at(x + 1, y, z)];
          dst[at(x, y, z)] = std::fma(sum, c1, -c0 * src[at(x, y, z)]);
        }
  }
  std::vector<float> got_a = run.final<float>("a"), got_b = run.final<float>("b");
  Mismatches ma("a"), mb("b");
  for (size_t i = 0; i < a.size(); ++i) ma.bits(i, got_a[i], a[i]);
  for (size_t i = 0; i < b.size(); ++i) mb.bits(i, got_b[i], b[i]);
}

// One k-means iteration: fmaf distances in the kernel's order (exact), then centre
// sums that are exact in any order (features are multiples of 1/64 in [0, 4),
// gen_inputs.py) divided with a correctly rounded float division: all exact.
TEST(CudaEqualizerSuite, kmeans) {
  ProgramRun run("equalizer/kmeans");
  RUN_OR_FAIL(run);
  const int n = run.arg(0, 3).get<int>(), k = run.arg(0, 4).get<int>();
  std::vector<float> features = run.initial<float>("features"), clusters = run.initial<float>("clusters");
  const int dims = int(features.size()) / n;
  ASSERT_EQ(size_t(dims) * size_t(k), clusters.size());
  std::vector<int32_t> membership(static_cast<size_t>(n));
  // Each kmeansPoint + kmeans_centers pair of the launch list is one iteration of Rodinia's loop.
  for (size_t iteration = 0; iteration < run.launch_count() / 2; ++iteration) {
    for (int p = 0; p < n; ++p) {
      float best_distance = 3.0e38f;
      for (int c = 0; c < k; ++c) {
        float distance = 0.0f;
        for (int f = 0; f < dims; ++f) {
          const float diff = features[size_t(p) * size_t(dims) + size_t(f)] - clusters[size_t(c * dims + f)];
          distance = std::fma(diff, diff, distance);
        }
        if (distance < best_distance) best_distance = distance, membership[size_t(p)] = c;
      }
    }
    for (int c = 0; c < k; ++c) {
      std::vector<double> sums(size_t(dims), 0.0);
      int count = 0;
      for (int p = 0; p < n; ++p)
        if (membership[size_t(p)] == c) {
          for (int f = 0; f < dims; ++f) sums[size_t(f)] += features[size_t(p) * size_t(dims) + size_t(f)];
          ++count;
        }
      for (int f = 0; count > 0 && f < dims; ++f) {
        ASSERT_EQ(double(float(sums[size_t(f)])), sums[size_t(f)]) << "inputs no longer give exact sums";
        clusters[size_t(c * dims + f)] = float(sums[size_t(f)]) / float(count);
      }
    }
  }
  std::vector<int32_t> got_membership = run.final<int32_t>("membership");
  std::vector<float> got_clusters = run.final<float>("clusters");
  Mismatches mm("membership"), mc("clusters");
  for (size_t i = 0; i < membership.size(); ++i) mm.exact(i, got_membership[i], membership[i]);
  for (size_t i = 0; i < clusters.size(); ++i) mc.bits(i, got_clusters[i], clusters[i]);
  // More than one cluster is used, or the distance comparisons went untested.
  EXPECT_LT(std::count(membership.begin(), membership.end(), membership[0]), n);
}

// Levels from the source (-1: unreached) do not depend on the order the frontier
// is expanded in; level l's flag is 1 exactly when level l reached new nodes.
TEST(CudaEqualizerSuite, bfs) {
  ProgramRun run("equalizer/bfs");
  RUN_OR_FAIL(run);
  const int n = run.arg(0, 3).get<int>(), source = run.arg(0, 4).get<int>();
  std::vector<int32_t> nodes = run.initial<int32_t>("nodes"), edges = run.initial<int32_t>("edges");
  std::vector<int32_t> cost(static_cast<size_t>(n), -1);
  cost[size_t(source)] = 0;
  std::vector<int> frontier = {source};
  std::vector<int32_t> over;
  while (!frontier.empty()) {
    std::vector<int> next;
    for (int v : frontier)
      for (int e = nodes[2 * size_t(v)]; e < nodes[2 * size_t(v)] + nodes[2 * size_t(v) + 1]; ++e)
        if (cost[size_t(edges[size_t(e)])] < 0) {
          cost[size_t(edges[size_t(e)])] = cost[size_t(v)] + 1;
          next.push_back(edges[size_t(e)]);
        }
    over.push_back(next.empty() ? 0 : 1);
    frontier.swap(next);
  }
  std::vector<int32_t> got_cost = run.final<int32_t>("cost"), got_over = run.final<int32_t>("over");
  ASSERT_EQ(got_over.size(), over.size()) << "the workload unrolls a different number of levels";
  Mismatches mc("cost"), mo("over");
  for (size_t i = 0; i < cost.size(); ++i) mc.exact(i, got_cost[i], cost[i]);
  for (size_t i = 0; i < over.size(); ++i) mo.exact(i, got_over[i], over[i]);
  std::vector<uint8_t> mask = run.final<uint8_t>("mask"), updating = run.final<uint8_t>("updating");
  EXPECT_EQ(std::count(mask.begin(), mask.end(), 0), n);  // the search ran to completion
  EXPECT_EQ(std::count(updating.begin(), updating.end(), 0), n);
}

// Q(x) = sum_k |phi_k|^2 (cos, sin)(2 pi k.x), accumulated over the chunk launches.
// Per term: the argument's rounding (a 3-term dot product and the 2 pi product:
// gamma_5 * 2 pi sum|k_d x_d|, plus the rounding of 2 pi itself) moves sin/cos by
// at most that much; sin/cos.approx add 2^-20.9 absolute for |arg| <= pi (PTX ISA);
// phi_r^2 + phi_i^2 is off by gamma_2 relative. The running sums of K terms add
// gamma_K * sum|terms|. All doubled.
TEST(CudaEqualizerSuite, mri_q) {
  ProgramRun run("equalizer/mri-q");
  RUN_OR_FAIL(run);
  const int num_x = run.arg(1, 11).get<int>();
  std::vector<float> kx = run.initial<float>("kx"), ky = run.initial<float>("ky"), kz = run.initial<float>("kz"),
                     phi_r = run.initial<float>("phi_r"), phi_i = run.initial<float>("phi_i"),
                     x = run.initial<float>("x"), y = run.initial<float>("y"), z = run.initial<float>("z");
  int samples = 0;
  for (size_t l = 1; l < run.launch_count(); ++l) {
    ASSERT_EQ(run.arg(l, 9).get<int>(), samples) << "chunks in order, back to back";
    samples += run.arg(l, 10).get<int>();
  }
  ASSERT_EQ(size_t(samples), kx.size());
  const double two_pi = 2.0 * M_PI, sfu_error = std::exp2(-20.9);
  std::vector<float> got_r = run.final<float>("qr"), got_i = run.final<float>("qi");
  Mismatches mr("qr"), mi("qi");
  for (int v = 0; v < num_x; ++v) {
    double qr = 0, qi = 0, tolerance = 0, magnitude = 0;
    for (int k = 0; k < samples; ++k) {
      const double dot = double(kx[size_t(k)]) * x[size_t(v)] + double(ky[size_t(k)]) * y[size_t(v)] +
                         double(kz[size_t(k)]) * z[size_t(v)];
      const double spread = std::fabs(double(kx[size_t(k)]) * x[size_t(v)]) +
                            std::fabs(double(ky[size_t(k)]) * y[size_t(v)]) +
                            std::fabs(double(kz[size_t(k)]) * z[size_t(v)]);
      const double phi = double(phi_r[size_t(k)]) * phi_r[size_t(k)] + double(phi_i[size_t(k)]) * phi_i[size_t(k)];
      qr += phi * std::cos(two_pi * dot);
      qi += phi * std::sin(two_pi * dot);
      tolerance += phi * (gamma2(5) * two_pi * spread + 2 * kU * two_pi * std::fabs(dot) + sfu_error + gamma2(2));
      magnitude += phi;
    }
    tolerance = 2 * tolerance + gamma2(samples) * magnitude;
    mr.near(size_t(v), got_r[size_t(v)], qr, tolerance);
    mi.near(size_t(v), got_i[size_t(v)], qi, tolerance);
  }
}

namespace {

// Bound on |computed - exact| of 1 / (1 + expf(-x)) when x itself is off by at most
// dx: the sigmoid's slope is at most 1/4; expf is ex2.approx (2 ulp) of x * log2(e)
// (that product's rounding is |x| u relative in the result); then an add and a
// division. A relative error r in exp moves the sigmoid by at most r / 4.
double sigmoid_tolerance(double x, double dx) { return dx / 4 + (std::exp2(-22) + std::fabs(x) * kU) / 4 + 4 * kU; }

}  // namespace

// Each kernel is checked against the inputs it read, as dumped (partials from the
// weights, activations from the device's partials, deltas from the device's
// activations, moves from the device's deltas), so every bound is one stage deep.
TEST(CudaEqualizerSuite, backprop) {
  ProgramRun run("equalizer/backprop");
  RUN_OR_FAIL(run);
  constexpr int kHidden = 16, kCols = 17;
  const int blocks = run.arg(1, 8).get<int>();
  const double eta =
      run.arg(1, 9).get<double>();  // the momentum (argument 10) multiplies the previous moves: zero here
  std::vector<float> input = run.initial<float>("input"), weights = run.initial<float>("weights"),
                     hidden_weights = run.initial<float>("hidden_weights"), target = run.initial<float>("target");
  std::vector<float> partial = run.final<float>("partial_sum"), hidden = run.final<float>("hidden"),
                     output = run.final<float>("output"), delta = run.final<float>("hidden_delta");
  Mismatches mp("partial_sum"), mh("hidden"), mo("output"), md("hidden_delta");
  for (int b = 0; b < blocks; ++b)  // 16 products summed by a 4-level tree
    for (int j = 0; j < kHidden; ++j) {
      double sum = 0, magnitude = 0;
      for (int r = kHidden * b + 1; r <= kHidden * (b + 1); ++r) {
        sum += double(weights[size_t(r) * kCols + j + 1]) * input[size_t(r)];
        magnitude += std::fabs(double(weights[size_t(r) * kCols + j + 1]) * input[size_t(r)]);
      }
      mp.near(size_t(b * kHidden + j), partial[size_t(b * kHidden + j)], sum, gamma2(5) * magnitude);
    }
  for (int j = 0; j < kHidden; ++j) {  // 64 per thread, a shuffle, 32 warps, the bias: depth 98
    double sum = weights[size_t(j + 1)], magnitude = std::fabs(weights[size_t(j + 1)]);
    for (int b = 0; b < blocks; ++b)
      sum += partial[size_t(b * kHidden + j)], magnitude += std::fabs(partial[size_t(b * kHidden + j)]);
    mh.near(size_t(j + 1), hidden[size_t(j + 1)], sigmoid(sum), sigmoid_tolerance(sum, gamma2(98) * magnitude));
  }
  double net = 0, magnitude = 0;
  for (int j = 0; j <= kHidden; ++j)
    net += double(hidden_weights[size_t(j)]) * hidden[size_t(j)],
        magnitude += std::fabs(double(hidden_weights[size_t(j)]) * hidden[size_t(j)]);
  mo.near(0, output[0], sigmoid(net), sigmoid_tolerance(net, gamma2(17) * magnitude));
  const double out = output[0], out_delta = out * (1 - out) * (target[0] - out);
  mo.near(1, output[1], out_delta, gamma2(4) * std::fabs(out_delta));
  for (int j = 1; j <= kHidden; ++j) {
    const double want =
        double(hidden[size_t(j)]) * (1 - double(hidden[size_t(j)])) * hidden_weights[size_t(j)] * output[1];
    md.near(size_t(j), delta[size_t(j)], want, gamma2(5) * std::fabs(want));
  }
  // Weight moves from zero previous moves: step = eta * delta * input, weight + step.
  auto check_moves = [&](const char* weights_name, const char* previous_name, const std::vector<float>& before,
                         auto input_of, auto delta_of) {
    std::vector<float> after = run.final<float>(weights_name), moved = run.final<float>(previous_name);
    Mismatches mw(weights_name), mm(previous_name);
    for (size_t i = 0; i < before.size(); ++i) {
      const double step = eta * delta_of(i) * input_of(i);
      mm.near(i, moved[i], step, gamma2(3) * std::fabs(step));
      mw.near(i, after[i], before[i] + step, gamma2(4) * (std::fabs(before[i]) + std::fabs(step)));
    }
  };
  std::vector<float> hidden_prev = run.initial<float>("hidden_prev"), previous = run.initial<float>("previous");
  ASSERT_TRUE(std::all_of(hidden_prev.begin(), hidden_prev.end(), [](float v) { return v == 0; }));
  ASSERT_TRUE(std::all_of(previous.begin(), previous.end(), [](float v) { return v == 0; }));
  check_moves(
      "hidden_weights", "hidden_prev", hidden_weights, [&](size_t j) { return double(hidden[j]); },
      [&](size_t) { return double(output[1]); });
  check_moves(
      "weights", "previous", weights, [&](size_t i) { return i / kCols == 0 ? 1.0 : double(input[i / kCols]); },
      [&](size_t i) { return i % kCols == 0 ? 0.0 : double(delta[i % kCols]); });
}

// Integer counts: the 8-bit saturated histogram, the last iteration's slots (window
// offset or flagged bin), and everything histo_final clears, all exact.
TEST(CudaEqualizerSuite, histo) {
  ProgramRun run("equalizer/histo");
  RUN_OR_FAIL(run);
  constexpr uint32_t kWindow = 4096, kOutside = 0x80000000u;  // histo.cu
  const int n = run.arg(0, 4).get<int>();
  std::vector<uint32_t> input = run.initial<uint32_t>("input");
  std::vector<uint32_t> counts(run.final<uint32_t>("counts").size(), 0);
  uint64_t total = 0;
  for (uint32_t v : input) ++counts[v], total += v;
  const uint32_t lowest = *std::min_element(input.begin(), input.end());
  const uint32_t mean = uint32_t(total / uint64_t(n));
  const uint32_t start = mean > lowest + kWindow / 2 ? mean - kWindow / 2 : lowest;
  std::vector<uint32_t> slots = run.final<uint32_t>("slots");
  std::vector<uint8_t> histo = run.final<uint8_t>("histo");
  Mismatches ms("slots"), mh("histo"), mc("counts");
  for (size_t i = 0; i < input.size(); ++i)
    ms.exact(i, slots[i], input[i] - start < kWindow ? input[i] - start : (input[i] | kOutside));
  for (size_t b = 0; b < counts.size(); ++b) mh.exact(b, unsigned(histo[b]), std::min(counts[b], 255u));
  std::vector<uint32_t> left = run.final<uint32_t>("counts");
  for (size_t b = 0; b < left.size(); ++b) mc.exact(b, left[b], 0u);
  EXPECT_EQ(run.final<uint32_t>("lowest")[0], 0xffffffffu);
  EXPECT_EQ(run.final<uint32_t>("highest")[0], 0u);
  EXPECT_EQ(run.final<uint64_t>("total")[0], 0u);
  // The input exercises both paths and the saturation.
  EXPECT_GT(std::count(histo.begin(), histo.end(), uint8_t(255)), 0);
  EXPECT_GT(std::count_if(slots.begin(), slots.end(), [](uint32_t s) { return (s & kOutside) != 0; }), 0);
}

// Each force component is a sum over ~1000 neighbour particles. Per term: r2 (a
// 3-term dot product and two adds, gamma_5 * (|v_i| + |v_j| + sum|x_i x_j|)) moves
// exp(-a2 r2) by a2 times that, relatively; expf is ex2.approx (2 ulp) of a product
// rounded |a2 r2| u relative; then up to 4 products/differences (gamma_4). The
// running sums add gamma_N * sum|terms|. All doubled.
TEST(CudaEqualizerSuite, lavaMD) {
  ProgramRun run("equalizer/lavaMD");
  RUN_OR_FAIL(run);
  constexpr int kPerBox = 100;
  const int nx = run.arg(0, 3).get<int>(), ny = run.arg(0, 4).get<int>(), nz = run.arg(0, 5).get<int>();
  const double a2 = run.arg(0, 6).get<double>();
  std::vector<float> rv = run.initial<float>("rv"), qv = run.initial<float>("qv"), fv = run.final<float>("fv");
  ASSERT_EQ(rv.size(), size_t(nx * ny * nz * kPerBox * 4));
  Mismatches m("fv");
  for (int box = 0; box < nx * ny * nz; ++box) {
    const int bx = box % nx, by = (box / nx) % ny, bz = box / (nx * ny);
    for (int i = box * kPerBox; i < (box + 1) * kPerBox; ++i) {
      double force[4] = {0, 0, 0, 0}, bound[4] = {0, 0, 0, 0}, magnitude[4] = {0, 0, 0, 0};
      int terms = 0;
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int x = bx + dx, y = by + dy, z = bz + dz;
            if (x < 0 || x >= nx || y < 0 || y >= ny || z < 0 || z >= nz) continue;
            const int first = ((z * ny + y) * nx + x) * kPerBox;
            for (int j = first; j < first + kPerBox; ++j, ++terms) {
              const float* a = &rv[size_t(i) * 4];
              const float* b = &rv[size_t(j) * 4];
              const double dot = double(a[1]) * b[1] + double(a[2]) * b[2] + double(a[3]) * b[3];
              const double r2 = double(a[0]) + b[0] - dot;
              const double spread = std::fabs(a[0]) + std::fabs(b[0]) + std::fabs(double(a[1]) * b[1]) +
                                    std::fabs(double(a[2]) * b[2]) + std::fabs(double(a[3]) * b[3]);
              const double vij = std::exp(-a2 * r2);
              const double relative = a2 * gamma2(5) * spread + std::exp2(-22) + std::fabs(a2 * r2) * kU + gamma2(4);
              const double term[4] = {qv[size_t(j)] * vij, qv[size_t(j)] * 2 * vij * (double(a[1]) - b[1]),
                                      qv[size_t(j)] * 2 * vij * (double(a[2]) - b[2]),
                                      qv[size_t(j)] * 2 * vij * (double(a[3]) - b[3])};
              for (int c = 0; c < 4; ++c) {
                force[c] += term[c];
                bound[c] += std::fabs(term[c]) * relative;
                magnitude[c] += std::fabs(term[c]);
              }
            }
          }
      for (int c = 0; c < 4; ++c) {
        const size_t at = size_t(i) * 4 + size_t(c);
        m.near(at, fv[at], force[c], 2 * bound[c] + gamma2(terms) * magnitude[c]);
      }
    }
  }
}

// pgain: fmaf distances in the kernel's order times the weight, and one
// difference into a cleared slot per point and call: every value exact.
TEST(CudaEqualizerSuite, streamcluster) {
  ProgramRun run("equalizer/streamcluster");
  RUN_OR_FAIL(run);
  const int num = run.arg(0, 0).get<int>(), dim = run.arg(0, 1).get<int>(), k = run.arg(0, 4).get<int>(),
            stride = run.arg(0, 5).get<int>();
  std::vector<float> coord = run.initial<float>("coord"), raw = run.initial<float>("points");
  std::vector<int32_t> table = run.initial<int32_t>("center_table");
  ASSERT_EQ(raw.size(), size_t(num) * 8);  // 32-byte points: weight, pad, pointer, assign (s64), cost, pad
  std::vector<float> work(run.final<float>("work_mem").size(), 0.0f);
  std::vector<uint8_t> switched(run.final<uint8_t>("switch_membership").size(), 0);
  for (size_t call = 0; call < run.launch_count(); ++call) {
    ASSERT_EQ(run.arg(call, 10).get<size_t>(), call);
    const int x = run.arg(call, 2).get<int>();
    for (int i = 0; i < num; ++i) {
      const float* point = &raw[size_t(i) * 8];
      int64_t assign;
      std::memcpy(&assign, point + 4, sizeof assign);
      float distance = 0.0f;
      for (int d = 0; d < dim; ++d) {
        const float diff = coord[size_t(d) * num + i] - coord[size_t(d) * num + x];
        distance = std::fma(diff, diff, distance);
      }
      const float x_cost = distance * point[0], cost = point[6];
      float* lower = &work[(call * num + i) * stride];
      if (x_cost < cost) {
        switched[call * num + i] = 1;
        lower[k] += x_cost - cost;
      } else {
        lower[table[size_t(assign)]] += cost - x_cost;
      }
    }
  }
  std::vector<float> got_work = run.final<float>("work_mem");
  std::vector<uint8_t> got_switched = run.final<uint8_t>("switch_membership");
  Mismatches mw("work_mem"), ms("switch_membership");
  for (size_t i = 0; i < work.size(); ++i) mw.bits(i, got_work[i], work[i]);
  for (size_t i = 0; i < switched.size(); ++i) ms.exact(i, unsigned(got_switched[i]), unsigned(switched[i]));
  EXPECT_GT(std::count(switched.begin(), switched.end(), uint8_t(1)), 0);  // both branches taken
  EXPECT_LT(size_t(std::count(switched.begin(), switched.end(), uint8_t(1))), switched.size());
}

// V(p) = sum over atoms with r2 < c2 of q rsqrt(r2) (1 - r2 / c2)^2. Per term: the
// differences and r2 are off by gamma_5 relative (delta_r2), so rsqrt by half that,
// plus rsqrt.approx's 2^-22.9 (PTX ISA); s = 1 - r2 / c2 is off by
// ds = gamma_7 r2 / c2 + u absolute, s^2 by 2 |s| ds + ds^2; three more products.
// An atom within ds of the cutoff may fall on either side: its whole term (at most
// |q| / r * ds^2) joins the bound. The sums add gamma_N * sum|terms|. Doubled.
TEST(CudaEqualizerSuite, cutcp) {
  ProgramRun run("equalizer/cutcp");
  RUN_OR_FAIL(run);
  constexpr int kRegionZ = 6;  // cutcp.cu: lattice points per block along z
  const double spacing = run.arg(0, 4).get<double>(), cutoff = run.arg(0, 5).get<double>();
  const int nx = run.arg(0, 7).get<int>(), ny = run.arg(0, 8).get<int>();
  std::vector<float> bins = run.initial<float>("bins"), lattice = run.final<float>("lattice");
  const int nz = int(lattice.size()) / (nx * ny);
  ASSERT_EQ(nz % kRegionZ, 0);
  const double c2 = float(cutoff * cutoff), ds_scale = gamma2(7);
  Mismatches m("lattice");
  for (int pz = 0; pz < nz; ++pz)
    for (int py = 0; py < ny; ++py)
      for (int px = 0; px < nx; ++px) {
        const double x = float(px * spacing), y = float(py * spacing), z = float(pz * spacing);
        double v = 0, bound = 0, magnitude = 0;
        int terms = 0;
        for (size_t slot = 0; slot < bins.size() / 4; ++slot) {
          const float* atom = &bins[slot * 4];
          if (atom[3] == 0.0f) continue;
          const double r2 =
              (x - atom[0]) * (x - atom[0]) + (y - atom[1]) * (y - atom[1]) + (z - atom[2]) * (z - atom[2]);
          const double ds = ds_scale * r2 / c2 + kU, s = 1 - r2 / c2;
          if (s < -ds) continue;  // beyond the cutoff even with rounding
          const double scale = std::fabs(atom[3]) / std::sqrt(r2);
          if (s <= ds) {  // either side of the cutoff
            bound += scale * ds * ds;
            continue;
          }
          const double term = atom[3] / std::sqrt(r2) * s * s;
          v += term;
          ++terms;
          magnitude += std::fabs(term);
          bound += scale * (2 * s * ds + ds * ds + s * s * (gamma2(5) / 2 + std::exp2(-22.9) + gamma2(3)));
        }
        const size_t at = (size_t(pz) * ny + py) * nx + px;
        m.near(at, lattice[at], v, 2 * bound + gamma2(terms) * magnitude);
      }
}

namespace {

// Rodinia's LCG as particlefilter.cu steps it, and its uniform draw (exact in float).
uint32_t lcg_step(uint32_t seed) { return (1103515245u * seed + 12345u) % 2147483647u; }
float lcg_uniform(uint32_t seed) { return float(seed) / float(2147483647u); }

// A Box-Muller draw from two uniforms and a bound on the device's error: cos.approx
// (2^-20.9 for |arg| <= pi) of an argument rounded by a few ulp of 2 pi; lg2.approx
// (2^-22 absolute plus 2^-22 relative, PTX ISA) scaled by 2 ln 2; the sqrt of a
// value off by d_rt is off by at most min(d_rt / (2 sqrt), sqrt(d_rt)).
double box_muller(double u, double v, double* error) {
  const double rt = -2 * std::log(u), root = std::sqrt(rt);
  const double d_rt = 2 * M_LN2 * std::exp2(-22) * (1 + std::fabs(std::log2(u))) + 4 * kU * rt;
  const double d_root = (root > 0 ? std::min(d_rt / (2 * root), std::sqrt(d_rt)) : std::sqrt(d_rt)) + kU * root;
  const double d_cos = std::exp2(-20.9) + 8 * kU * 2 * M_PI;
  *error = d_root + root * d_cos + 2 * kU * root;
  return root * std::cos(2 * M_PI * v);
}

}  // namespace

// The last frame is checked stage by stage against the buffers each kernel read, as
// dumped (earlier frames only feed it): positions from the previous frame's slice
// and the replayed LCG, disk indices from the device's positions (exact), the mean
// log-likelihood (a sum of 81 terms), the total and the normalised weights (expf is
// ex2.approx), the CDF (a sequential float sum: exact), u (exact) and the resampled
// positions (exact search), and the seeds (exact).
TEST(CudaEqualizerSuite, particlefilter) {
  ProgramRun run("equalizer/particlefilter");
  RUN_OR_FAIL(run);
  const size_t last = run.launch_count() - 4;  // the last frame's likelihood_kernel
  const int ones = run.arg(last, 5).get<int>(), n = run.arg(last, 11).get<int>(), frame = run.arg(last, 12).get<int>(),
            size_y = run.arg(last, 14).get<int>(), frames = run.arg(last, 15).get<int>();
  std::vector<uint8_t> video = run.initial<uint8_t>("video");
  std::vector<int32_t> objxy = run.initial<int32_t>("objxy"), ind = run.final<int32_t>("ind");
  std::vector<uint32_t> seed = run.initial<uint32_t>("seed");
  std::vector<float> xj = run.final<float>("xj"), yj = run.final<float>("yj"), ax = run.final<float>("array_x"),
                     ay = run.final<float>("array_y"), likelihood = run.final<float>("likelihood"),
                     weights = run.final<float>("weights"), cdf = run.final<float>("cdf"), u = run.final<float>("u");
  const float total = run.final<float>("partial_sums")[0];
  auto draws = [&](int i) {  // one randn: two LCG steps
    seed[size_t(i)] = lcg_step(seed[size_t(i)]);
    const float a = lcg_uniform(seed[size_t(i)]);
    seed[size_t(i)] = lcg_step(seed[size_t(i)]);
    return std::make_pair(a, lcg_uniform(seed[size_t(i)]));
  };
  Mismatches mx("array_x"), my("array_y"), mi("ind"), ml("likelihood"), mw("weights"), mt("partial_sums"), mc("cdf"),
      mu("u"), mj("xj/yj"), ms("seed");
  float u0 = 0;
  for (int f = 1; f <= frame; ++f) {
    for (int i = 0; i < n; ++i) {
      const auto [ux, vx] = draws(i);
      const auto [uy, vy] = draws(i);
      if (f != frame) continue;
      double ex, ey;
      const double nx = box_muller(ux, vx, &ex), ny = box_muller(uy, vy, &ey);
      const double px = xj[size_t((f - 1) * n + i)], py = yj[size_t((f - 1) * n + i)];
      mx.near(size_t(i), ax[size_t(i)], px + 1 + 5 * nx,
              2 * (5 * ex + gamma2(3) * (std::fabs(px) + 1 + 5 * std::fabs(nx))));
      my.near(size_t(i), ay[size_t(i)], py - 2 + 2 * ny,
              2 * (2 * ey + gamma2(3) * (std::fabs(py) + 2 + 2 * std::fabs(ny))));
    }
    seed[0] = lcg_step(seed[0]);  // normalize_weights_kernel's draw for u0
    u0 = (1.0f / float(n)) * lcg_uniform(seed[0]);
  }
  double sum_weights = 0, sum_bound = 0;
  for (int i = 0; i < n; ++i) {
    const int rx = int(std::floor(ax[size_t(i)] + 0.5f)), ry = int(std::floor(ay[size_t(i)] + 0.5f));
    double sum = 0, magnitude = 0;
    for (int k = 0; k < ones; ++k) {
      int index =
          std::abs((rx + objxy[size_t(2 * k + 1)]) * size_y * frames + (ry + objxy[size_t(2 * k)]) * frames + frame);
      if (index >= int(video.size())) index = 0;
      mi.exact(size_t(i * ones + k), ind[size_t(i * ones + k)], index);
      const double p = video[size_t(index)], term = ((p - 100) * (p - 100) - (p - 228) * (p - 228)) / 50;
      sum += term, magnitude += std::fabs(term);
    }
    ml.near(size_t(i), likelihood[size_t(i)], sum / ones, gamma2(ones + 2) * magnitude / ones);
    const double l = likelihood[size_t(i)], w = std::exp(l) / n;
    const double w_error = w * (std::exp2(-22) + std::fabs(l) * kU + gamma2(3));  // ex2.approx, x log2 e, 1/n, product
    sum_weights += w, sum_bound += w_error + gamma2(9 + 8) * w;  // a 9-level block tree, then 8 block sums
    // + 2^-126: a quotient below float's normal range loses its relative precision.
    mw.near(size_t(i), weights[size_t(i)], w / total, 2 * (w_error / total + kU * w / total) + std::exp2(-126));
  }
  mt.near(0, total, sum_weights, 2 * sum_bound);
  float running = 0;
  for (int j = 0; j < n; ++j) {
    running += weights[size_t(j)];
    mc.bits(size_t(j), cdf[size_t(j)], running);
    mu.bits(size_t(j), u[size_t(j)], u0 + float(j) / float(n));
  }
  for (int i = 0; i < n; ++i) {
    int index = n - 1;
    for (int x = 0; x < n; ++x)
      if (cdf[size_t(x)] >= u[size_t(i)]) {
        index = x;
        break;
      }
    mj.bits(size_t(i), xj[size_t(frame * n + i)], ax[size_t(index)]);
    mj.bits(size_t(n + i), yj[size_t(frame * n + i)], ay[size_t(index)]);
  }
  std::vector<uint32_t> got_seed = run.final<uint32_t>("seed");
  for (size_t i = 0; i < seed.size(); ++i) ms.exact(i, got_seed[i], seed[i]);
}

// Integer matches: the suffix array is checked to be sorted, then each read's
// longest match is found again by the same search; the reported place must hold
// the match, and a longer one must not exist next to it in suffix order.
TEST(CudaEqualizerSuite, mummer) {
  ProgramRun run("equalizer/mummer");
  RUN_OR_FAIL(run);
  const int ref_length = run.arg(0, 2).get<int>(), reads_count = run.arg(0, 4).get<int>(),
            read_length = run.arg(0, 5).get<int>(), starts = run.arg(0, 6).get<int>(),
            stride = run.arg(0, 7).get<int>();
  std::vector<uint8_t> ref = run.initial<uint8_t>("ref"), reads = run.initial<uint8_t>("reads");
  std::vector<int32_t> suffixes = run.initial<int32_t>("suffixes");
  auto head = [&](int at) {
    return ref.begin() + std::min(ref_length, at + read_length);
  };  // the letters that can match
  for (int i = 0; i + 1 < ref_length; ++i) {
    const int a = suffixes[size_t(i)], b = suffixes[size_t(i) + 1];
    ASSERT_FALSE(std::lexicographical_compare(ref.begin() + b, head(b), ref.begin() + a, head(a)))
        << "suffix order at " << i;
  }
  auto prefix = [&](int at, const uint8_t* pattern, int length) {
    int k = 0;
    while (k < length && at + k < ref_length && ref[size_t(at + k)] == pattern[k]) ++k;
    return k;
  };
  std::vector<int32_t> got_length = run.final<int32_t>("best_length"),
                       got_position = run.final<int32_t>("best_position");
  Mismatches ml("best_length"), mp("best_position");
  for (int r = 0; r < reads_count; ++r)
    for (int s = 0; s < starts; ++s) {
      const uint8_t* pattern = &reads[size_t(r * read_length + s * stride)];
      const int length = read_length - s * stride;
      int lo = 0, hi = ref_length;
      while (lo < hi) {
        const int mid = (lo + hi) / 2, at = suffixes[size_t(mid)], k = prefix(at, pattern, length);
        if (k < length && (at + k == ref_length || ref[size_t(at + k)] < pattern[k])) lo = mid + 1;
        else hi = mid;
      }
      int best = 0;
      for (int i = std::max(0, lo - 1); i <= std::min(ref_length - 1, lo); ++i)
        best = std::max(best, prefix(suffixes[size_t(i)], pattern, length));
      const size_t at = size_t(r * starts + s);
      ml.exact(at, got_length[at], best);
      const bool on_ref = got_position[at] >= 0 && got_position[at] < ref_length;
      mp.exact(at, on_ref ? prefix(got_position[at], pattern, length) : -1, best);  // the place holds the match
    }
}

namespace {

// cfd.cu's element state in host floats, operation for operation (the device keeps
// every product out of fma contraction, so each step rounds once as here).
struct CfdState {
  float density, energy, pressure, speed_of_sound, speed_sqd;
  float momentum[3], velocity[3], flux[3][3], flux_energy[3];  // flux[axis of the face][momentum component]
};

CfdState cfd_state(const std::vector<float>& v, size_t i, size_t nelr) {
  CfdState s;
  s.density = v[i];
  for (int d = 0; d < 3; ++d) s.momentum[d] = v[(1 + d) * nelr + i];
  s.energy = v[4 * nelr + i];
  for (int d = 0; d < 3; ++d) s.velocity[d] = s.momentum[d] / s.density;
  s.speed_sqd = s.velocity[0] * s.velocity[0] + s.velocity[1] * s.velocity[1] + s.velocity[2] * s.velocity[2];
  s.pressure = (1.4f - 1.0f) * (s.energy - 0.5f * s.density * s.speed_sqd);
  s.speed_of_sound = std::sqrt(1.4f * s.pressure / s.density);
  for (int a = 0; a < 3; ++a)
    for (int d = 0; d < 3; ++d)
      s.flux[a][d] = s.velocity[std::min(a, d)] * s.momentum[std::max(a, d)] + (a == d ? s.pressure : 0.0f);
  for (int a = 0; a < 3; ++a) s.flux_energy[a] = s.velocity[a] * (s.energy + s.pressure);
  return s;
}

// The central average over one face axis of the element's and the other side's fluxes.
void cfd_average(float* f, float normal, float mass_a, float mass_b, const CfdState& a, const float (*flux_b)[3],
                 const float* flux_energy_b, int axis) {
  const float factor = 0.5f * normal;
  f[0] += factor * (mass_b + mass_a);
  f[4] += factor * (flux_energy_b[axis] + a.flux_energy[axis]);
  for (int d = 0; d < 3; ++d) f[1 + d] += factor * (flux_b[d][axis] + a.flux[d][axis]);
}

std::vector<float> cfd_fluxes(const std::vector<float>& v, const std::vector<int32_t>& neighbours,
                              const std::vector<float>& normals, const std::vector<float>& ff, size_t nelr) {
  std::vector<float> out(5 * nelr);
  const float ff_flux[3][3] = {{ff[5], ff[6], ff[7]}, {ff[8], ff[9], ff[10]}, {ff[11], ff[12], ff[13]}};
  for (size_t i = 0; i < nelr; ++i) {
    const CfdState a = cfd_state(v, i, nelr);
    const float speed = std::sqrt(a.speed_sqd);
    float f[5] = {0, 0, 0, 0, 0};
    for (size_t j = 0; j < 4; ++j) {
      const int nb = neighbours[j * nelr + i];
      const float n[3] = {normals[j * nelr + i], normals[(j + 4) * nelr + i], normals[(j + 8) * nelr + i]};
      if (nb >= 0) {
        const CfdState b = cfd_state(v, size_t(nb), nelr);
        const float normal_len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        const float factor =
            -normal_len * 0.2f * 0.5f * (speed + std::sqrt(b.speed_sqd) + a.speed_of_sound + b.speed_of_sound);
        f[0] += factor * (a.density - b.density);
        f[4] += factor * (a.energy - b.energy);
        for (int d = 0; d < 3; ++d) f[1 + d] += factor * (a.momentum[d] - b.momentum[d]);
        for (int axis = 0; axis < 3; ++axis)
          cfd_average(f, n[axis], a.momentum[axis], b.momentum[axis], a, b.flux, b.flux_energy, axis);
      } else if (nb == -1) {
        for (int d = 0; d < 3; ++d) f[1 + d] += n[d] * a.pressure;
      } else if (nb == -2) {
        for (int axis = 0; axis < 3; ++axis)
          cfd_average(f, n[axis], a.momentum[axis], ff[size_t(1 + axis)], a, ff_flux, &ff[14], axis);
      }
    }
    for (size_t k = 0; k < 5; ++k) out[k * nelr + i] = f[k];
  }
  return out;
}

}  // namespace

// The whole run repeated on the host in float, in the kernels' order of operations:
// every buffer bit for bit.
TEST(CudaEqualizerSuite, cfd) {
  ProgramRun run("equalizer/cfd");
  RUN_OR_FAIL(run);
  const size_t nelr = run.arg(1, 0).get<size_t>();
  std::vector<float> v = run.initial<float>("variables"), normals = run.initial<float>("normals"),
                     areas = run.initial<float>("areas"), ff = run.initial<float>("ff");
  std::vector<int32_t> neighbours = run.initial<int32_t>("neighbours");
  std::vector<float> old_v, step(nelr), fluxes;
  for (size_t iteration = 0; iteration < (run.launch_count()) / 8; ++iteration) {
    old_v = v;
    for (size_t i = 0; i < nelr; ++i) {
      const CfdState s = cfd_state(v, i, nelr);
      step[i] = 0.5f / (std::sqrt(areas[i]) * (std::sqrt(s.speed_sqd) + s.speed_of_sound));
    }
    for (int stage = 0; stage < 3; ++stage) {
      fluxes = cfd_fluxes(v, neighbours, normals, ff, nelr);
      for (size_t i = 0; i < nelr; ++i) {
        const float factor = step[i] / float(3 + 1 - stage);
        for (size_t k = 0; k < 5; ++k) v[k * nelr + i] = old_v[k * nelr + i] + factor * fluxes[k * nelr + i];
      }
    }
  }
  ASSERT_EQ(run.launch_count() % 8, 0u);  // copy, step factor, 3 x (flux, time step) per iteration
  std::vector<float> got_v = run.final<float>("variables"), got_flux = run.final<float>("fluxes"),
                     got_step = run.final<float>("step_factors");
  Mismatches mv("variables"), mf("fluxes"), ms("step_factors");
  for (size_t i = 0; i < v.size(); ++i) mv.bits(i, got_v[i], v[i]);
  for (size_t i = 0; i < fluxes.size(); ++i) mf.bits(i, got_flux[i], fluxes[i]);
  for (size_t i = 0; i < step.size(); ++i) ms.bits(i, got_step[i], step[i]);
}

// GICOV scores in the kernel's order of float operations (its products are kept
// out of fma contraction), then the dilation's maxima: both bit for bit.
TEST(CudaEqualizerSuite, leukocyte) {
  ProgramRun run("equalizer/leukocyte");
  RUN_OR_FAIL(run);
  constexpr int kCircles = 7, kPoints = 150;  // leukocyte.cu
  const int width = run.arg(0, 7).get<int>(), height = run.arg(0, 8).get<int>(), margin = run.arg(0, 9).get<int>();
  std::vector<float> gx = run.initial<float>("grad_x"), gy = run.initial<float>("grad_y"),
                     cosines = run.initial<float>("cosines"), sines = run.initial<float>("sines");
  std::vector<int32_t> tx = run.initial<int32_t>("tx"), ty = run.initial<int32_t>("ty"),
                       disk = run.initial<int32_t>("disk");
  std::vector<float> gicov(size_t(width) * size_t(height), 0.0f), dilated(gicov.size(), 0.0f);
  for (int y = margin; y < height - margin; ++y)
    for (int x = margin; x < width - margin; ++x) {
      float best = 0.0f;
      for (int c = 0; c < kCircles; ++c) {
        float g[kPoints], sum = 0.0f, spread = 0.0f;
        for (int p = 0; p < kPoints; ++p) {
          const size_t at = size_t((y + ty[size_t(c * kPoints + p)]) * width + x + tx[size_t(c * kPoints + p)]);
          g[p] = gx[at] * cosines[size_t(p)] + gy[at] * sines[size_t(p)];
          sum += g[p];
        }
        const float mean = sum / float(kPoints);
        for (int p = 0; p < kPoints; ++p) spread += (g[p] - mean) * (g[p] - mean);
        const float score = mean * mean / (spread / float(kPoints - 1));
        if (score > best) best = score;
      }
      gicov[size_t(y * width + x)] = best;
    }
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (size_t k = 0; k < disk.size() / 2; ++k) {
        const int nx = x + disk[2 * k + 1], ny = y + disk[2 * k];
        if (nx >= 0 && nx < width && ny >= 0 && ny < height)
          dilated[size_t(y * width + x)] = std::max(dilated[size_t(y * width + x)], gicov[size_t(ny * width + nx)]);
      }
  std::vector<float> got_gicov = run.final<float>("gicov"), got_dilated = run.final<float>("dilated");
  Mismatches mg("gicov"), md("dilated");
  for (size_t i = 0; i < gicov.size(); ++i) mg.bits(i, got_gicov[i], gicov[i]);
  for (size_t i = 0; i < dilated.size(); ++i) md.bits(i, got_dilated[i], dilated[i]);
}

// Binning, scan and reorder are integer bookkeeping, checked exactly (the ranks
// within a bin may come in any order, so they must be a permutation). Gridding: per
// sample, d^2 (three differences and squares, gamma_5) moves w = 1 - d^2 / r^2 by
// dw = gamma_7 d^2 / r^2 + u, w^2 v by (2 w dw + dw^2 + gamma_3 w^2) |v|; a sample
// within dw of the radius may fall on either side (its whole term joins the bound);
// the sums add gamma_N * sum|terms|. Doubled.
TEST(CudaEqualizerSuite, mri_gridding) {
  ProgramRun run("equalizer/mri-gridding");
  RUN_OR_FAIL(run);
  constexpr int kBinSide = 4;  // mri-gridding.cu
  const int n = run.arg(0, 6).get<int>(), bins = run.arg(0, 7).get<int>(), size = run.arg(3, 4).get<int>();
  const float radius = run.arg(3, 5).get<float>();
  std::vector<float> kx = run.initial<float>("kx"), ky = run.initial<float>("ky"), kz = run.initial<float>("kz"),
                     re = run.initial<float>("re"), im = run.initial<float>("im");
  std::vector<int32_t> count(size_t(bins * bins * bins), 0), got_bin = run.final<int32_t>("sample_bin"),
                                                             rank = run.final<int32_t>("sample_rank");
  Mismatches mb("sample_bin"), mc("bin_count"), ms("bin_start"), mr("sample_rank"), mp("sorted"), mg("grid");
  for (int i = 0; i < n; ++i) {
    const int bin =
        (int(kz[size_t(i)]) / kBinSide * bins + int(ky[size_t(i)]) / kBinSide) * bins + int(kx[size_t(i)]) / kBinSide;
    mb.exact(size_t(i), got_bin[size_t(i)], bin);
    ++count[size_t(bin)];
  }
  std::vector<int32_t> got_count = run.final<int32_t>("bin_count"), start = run.final<int32_t>("bin_start");
  int running = 0;
  for (size_t b = 0; b < count.size(); ++b) {
    mc.exact(b, got_count[b], count[b]);
    ms.exact(b, start[b], running);
    running += count[b];
  }
  ms.exact(count.size(), start[count.size()], running);
  std::vector<float> position = run.final<float>("sorted_position"), value = run.final<float>("sorted_value");
  std::vector<int> taken(size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    const int bin = got_bin[size_t(i)];
    mr.exact(size_t(i), rank[size_t(i)] >= 0 && rank[size_t(i)] < count[size_t(bin)], true);
    const size_t to = size_t(start[size_t(bin)] + rank[size_t(i)]);
    if (to >= size_t(n)) continue;
    ++taken[to];
    mp.bits(4 * to, position[4 * to], kx[size_t(i)]);
    mp.bits(4 * to + 1, position[4 * to + 1], ky[size_t(i)]);
    mp.bits(4 * to + 2, position[4 * to + 2], kz[size_t(i)]);
    mp.bits(2 * to + size_t(4 * n), value[2 * to], re[size_t(i)]);
    mp.bits(2 * to + 1 + size_t(4 * n), value[2 * to + 1], im[size_t(i)]);
  }
  EXPECT_EQ(std::count(taken.begin(), taken.end(), 1), n) << "ranks collide within a bin";
  std::vector<float> grid = run.final<float>("grid");
  const double r2 = double(radius) * radius;
  for (int p = 0; p < size * size * size; ++p) {
    const double x = p % size, y = (p / size) % size, z = p / (size * size);
    double sum[2] = {0, 0}, bound = 0, magnitude = 0;
    int terms = 0;
    for (int i = 0; i < n; ++i) {
      const double dx = x - kx[size_t(i)], dy = y - ky[size_t(i)], dz = z - kz[size_t(i)],
                   d2 = dx * dx + dy * dy + dz * dz;
      const double dw = gamma2(7) * d2 / r2 + kU, w = 1 - d2 / r2;
      const double v = std::max(std::fabs(re[size_t(i)]), std::fabs(im[size_t(i)]));
      if (w < -dw) continue;
      if (w <= dw) {  // either side of the radius
        bound += dw * dw * v;
        continue;
      }
      sum[0] += w * w * re[size_t(i)];
      sum[1] += w * w * im[size_t(i)];
      ++terms;
      magnitude += w * w * v;
      bound += (2 * w * dw + dw * dw + gamma2(3) * w * w) * v;
    }
    for (int c = 0; c < 2; ++c)
      mg.near(size_t(2 * p + c), grid[size_t(2 * p + c)], sum[c], 2 * bound + gamma2(terms) * magnitude);
  }
}
