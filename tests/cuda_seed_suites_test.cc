// The seed suites' CUDA programs (configs/workloads/cuda/harmonia/,
// voltage_noise/, core_shutdown/, sm_allocation/) end to end: gpupm compiles and runs each on the
// GTX 480 model with --dump-inputs/--dump-buffers, and the host recomputes every
// output buffer from the dumped inputs. Integers must match exactly; kernels that
// spell every float operation out (explicit fmaf, fixed order) are repeated bit
// for bit; the rest get a tolerance derived where it is used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "support/program_check.h"

using gpupm::test::kU;
using gpupm::test::Mismatches;
using gpupm::test::ProgramRun;

namespace {

// The workload's launch entries as run (kernel names and `repeat`; the generated ones at GPUPM_TEST_SCALE=paper).
gpupm::Json launches_of(const ProgramRun& run) {
  gpupm::Json launches = gpupm::Json::array();
  for (size_t l = 0; l < run.launch_count(); ++l) launches.push_back(run.launch(l));
  return launches;
}

void expect_bits(const std::string& name, const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size()) << name;
  Mismatches m(name);
  for (size_t i = 0; i < got.size(); ++i) m.bits(i, got[i], want[i]);
}

}  // namespace

// ---- Harmonia ----

TEST(HarmoniaSuite, maxflops) {
  ProgramRun run("harmonia/maxflops");
  RUN_OR_FAIL(run);
  constexpr int kChains = 8;
  std::vector<float> data = run.initial<float>("data");
  // Every launch in order, each `repeat` times, in place: the kernels' fmaf chains and
  // their left-to-right sum repeated exactly.
  for (const gpupm::Json& launch : launches_of(run)) {
    bool mul_first = launch.at("kernel") == "mul_madd";
    int iterations = launch.at("args").at(1).get<int>();
    float a = launch.at("args").at(2).get<float>(), b = launch.at("args").at(3).get<float>();
    for (int r = 0; r < launch.value("repeat", 1); ++r)
      for (float& value : data) {
        float sum = 0.0f;
        for (int c = 0; c < kChains; ++c) {
          float x = mul_first ? value - float(c) * 0.125f : value + float(c) * 0.125f;
          for (int k = 0; k < iterations; ++k) x = std::fma(mul_first ? x * a : x, a, b);
          sum += x;
        }
        value = sum * 0.125f;
      }
  }
  expect_bits("data", run.final<float>("data"), data);
}

TEST(HarmoniaSuite, device_memory) {
  ProgramRun run("harmonia/device_memory");
  RUN_OR_FAIL(run);
  std::vector<float> data = run.initial<float>("data");
  std::vector<float> sums = run.final<float>("sums");
  int words = run.arg(0, 2).get<int>(), threads = int(sums.size());
  // Each thread's strided loads summed in the kernel's order: bit-identical.
  std::vector<float> want(sums.size(), 0.0f);
  for (int i = 0; i < threads; ++i)
    for (int w = i; w < words; w += threads) want[size_t(i)] += data[size_t(w)];
  expect_bits("sums", sums, want);
  float value = run.arg(1, 2).get<float>();
  for (int w = 0; w < words; ++w) data[size_t(w)] = value + float(w & 1023);
  expect_bits("data", run.final<float>("data"), data);
}

TEST(HarmoniaSuite, sort) {
  ProgramRun run("harmonia/sort");
  RUN_OR_FAIL(run);
  // Every array a pass sorts (the first radix_count's source of each sort: "keys", or at
  // paper scale each pass's own "keys<p>") ends sorted in place.
  std::set<std::string> arrays;
  for (size_t l = 0; l < run.launch_count(); l += 24) arrays.insert(run.arg(l, 0).get<std::string>());
  ASSERT_EQ(arrays.size() * 24, run.launch_count());
  for (const std::string& name : arrays) {
    std::vector<uint32_t> keys = run.initial<uint32_t>(name);
    std::sort(keys.begin(), keys.end());
    std::vector<uint32_t> got = run.final<uint32_t>(name);
    ASSERT_EQ(got.size(), keys.size());
    Mismatches m(name);
    for (size_t i = 0; i < got.size(); ++i) m.exact(i, got[i], keys[i]);
  }
  // The last pass's scan left the exclusive offsets of digit 15 (bits 28-31) per tile:
  // the first offset of digit 0 is 0 and the offsets never decrease.
  std::vector<uint32_t> offsets = run.final<uint32_t>("counts");
  EXPECT_EQ(offsets.front(), 0u);
  EXPECT_TRUE(std::is_sorted(offsets.begin(), offsets.end()));
}

TEST(HarmoniaSuite, lud) {
  ProgramRun run("harmonia/lud");
  RUN_OR_FAIL(run);
  constexpr int kB = 16;
  std::vector<float> a = run.initial<float>("a");
  const int n = run.arg(0, 1).get<int>();
  auto at = [&](int r, int c) -> float& { return a[size_t(r) * size_t(n) + size_t(c)]; };
  // The blocked algorithm's per-element operations in the kernels' order: each element
  // takes fmaf(-l, u, x) for ascending k inside its block step (a row-/column-ordered
  // sweep reads only finished values), divides by the pivot if below the diagonal,
  // and the trailing tiles subtract one fmaf-accumulated sum per step.
  for (int o = 0; o < n; o += kB) {
    const int end = o + kB;
    for (int r = o; r < end; ++r)  // diagonal block
      for (int c = o; c < end; ++c) {
        for (int k = o; k < std::min(r, c); ++k) at(r, c) = std::fma(-at(r, k), at(k, c), at(r, c));
        if (r > c) at(r, c) = at(r, c) / at(c, c);
      }
    for (int c = end; c < n; ++c)  // U row panel
      for (int r = o + 1; r < end; ++r)
        for (int k = o; k < r; ++k) at(r, c) = std::fma(-at(r, k), at(k, c), at(r, c));
    for (int r = end; r < n; ++r)  // L column panel
      for (int c = o; c < end; ++c) {
        for (int k = o; k < c; ++k) at(r, c) = std::fma(-at(r, k), at(k, c), at(r, c));
        at(r, c) = at(r, c) / at(c, c);
      }
    for (int r = end; r < n; ++r)  // trailing submatrix
      for (int c = end; c < n; ++c) {
        float sum = 0.0f;
        for (int k = o; k < end; ++k) sum = std::fma(at(r, k), at(k, c), sum);
        at(r, c) -= sum;
      }
  }
  expect_bits("a", run.final<float>("a"), a);
}

TEST(HarmoniaSuite, xsbench) {
  ProgramRun run("harmonia/xsbench");
  RUN_OR_FAIL(run);
  constexpr int kChannels = 5, kMaterials = 12;
  std::vector<float> jitter = run.initial<float>("jitter"), xs = run.initial<float>("xs"),
                     conc = run.initial<float>("mat_conc"), cdf = run.initial<float>("mat_cdf");
  std::vector<int32_t> offsets = run.initial<int32_t>("mat_offsets"), members = run.initial<int32_t>("mat_nuclides");
  const int points = run.arg(0, 2).get<int>();
  std::vector<float> energy(jitter.size());
  for (size_t i = 0; i < energy.size(); ++i) energy[i] = (float(int(i) % points) + jitter[i]) * (1.0f / float(points));
  expect_bits("energy", run.final<float>("energy"), energy);
  // The last launch's lookups (the first wrote the same buffer): the kernel's LCG,
  // search and explicit fmaf interpolation repeated exactly.
  const size_t last = run.launch_count() - 1;
  const int lookups = run.arg(last, 8).get<int>();
  const uint32_t seed = run.arg(last, 9).get<uint32_t>();
  std::vector<float> want(size_t(lookups) * kChannels);
  for (int i = 0; i < lookups; ++i) {
    uint32_t state = seed ^ (uint32_t(i) * 2654435761u);
    auto draw = [&] {
      state = state * 1664525u + 1013904223u;
      return float(state >> 8) * (1.0f / 16777216.0f);
    };
    float e = draw(), pick = draw();
    int material = 0;
    while (material < kMaterials - 1 && pick >= cdf[size_t(material)]) ++material;
    float* macro = &want[size_t(i) * kChannels];
    for (int m = offsets[size_t(material)]; m < offsets[size_t(material) + 1]; ++m) {
      const size_t base = size_t(members[size_t(m)]) * size_t(points);
      const float* grid = &energy[base];
      int lo = int(std::upper_bound(grid, grid + points - 1, e) - grid) - 1;  // last grid[lo] <= e
      lo = std::clamp(lo, 0, points - 2);
      float f = (grid[lo + 1] - e) / (grid[lo + 1] - grid[lo]);
      const float* low = &xs[(base + size_t(lo)) * kChannels];
      for (int c = 0; c < kChannels; ++c) {
        float high = low[kChannels + c];
        macro[c] = std::fma(std::fma(-f, high - low[c], high), conc[size_t(m)], macro[c]);
      }
    }
  }
  expect_bits("macro_xs", run.final<float>("macro_xs"), want);
}

TEST(HarmoniaSuite, srad) {
  ProgramRun run("harmonia/srad");
  RUN_OR_FAIL(run);
  constexpr size_t kReduceThreads = 256;
  std::vector<float> image = run.initial<float>("image");
  const int rows = run.arg(3, 8).get<int>(), cols = run.arg(3, 9).get<int>();
  const float lambda = run.arg(4, 8).get<float>();
  const size_t pixels = image.size(), iterations = run.launch_count() / 5;
  // The kernels' operations in their order (explicit fmaf for every multiply-add),
  // the two-level tree sums included: bit-identical.
  auto block_sum = [&](const std::vector<float>& v, size_t count, size_t block) {
    float tree[kReduceThreads];
    for (size_t t = 0; t < kReduceThreads; ++t) {
      size_t i = block * kReduceThreads * 2 + t;
      tree[t] = (i < count ? v[i] : 0.0f);
      if (i + kReduceThreads < count) tree[t] += v[i + kReduceThreads];
    }
    for (size_t half = kReduceThreads / 2; half > 0; half >>= 1)
      for (size_t t = 0; t < half; ++t) tree[t] += tree[t + half];
    return tree[0];
  };
  auto total = [&](std::vector<float> v) {
    for (size_t count = pixels; count > 1;) {
      size_t blocks = (count + 2 * kReduceThreads - 1) / (2 * kReduceThreads);
      for (size_t b = 0; b < blocks; ++b) v[b] = block_sum(v, count, b);
      count = blocks;
    }
    return v[0];
  };
  std::vector<float> n(pixels), s(pixels), w(pixels), e(pixels), c(pixels), squares(pixels);
  auto at = [&](const std::vector<float>& v, int r, int col) {
    return v[size_t(std::clamp(r, 0, rows - 1)) * size_t(cols) + size_t(std::clamp(col, 0, cols - 1))];
  };
  for (size_t it = 0; it < iterations; ++it) {
    for (size_t i = 0; i < pixels; ++i) squares[i] = image[i] * image[i];
    float count = float(pixels), mean = total(image) / count;
    float variance = std::fma(-mean, mean, total(squares) / count);
    float q0sqr = variance / (mean * mean);
    for (int r = 0; r < rows; ++r)
      for (int col = 0; col < cols; ++col) {
        size_t i = size_t(r) * size_t(cols) + size_t(col);
        float centre = image[i];
        n[i] = at(image, r - 1, col) - centre, s[i] = at(image, r + 1, col) - centre;
        w[i] = at(image, r, col - 1) - centre, e[i] = at(image, r, col + 1) - centre;
        float g2 = std::fma(e[i], e[i], std::fma(w[i], w[i], std::fma(s[i], s[i], n[i] * n[i]))) / (centre * centre);
        float l = (n[i] + s[i] + w[i] + e[i]) / centre;
        float num = std::fma(-0.0625f, l * l, 0.5f * g2), den = std::fma(0.25f, l, 1.0f);
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
        c[i] = std::clamp(1.0f / (1.0f + den), 0.0f, 1.0f);
      }
    for (int r = 0; r < rows; ++r)
      for (int col = 0; col < cols; ++col) {
        size_t i = size_t(r) * size_t(cols) + size_t(col);
        float divergence =
            std::fma(at(c, r, col + 1), e[i], std::fma(c[i], w[i], std::fma(at(c, r + 1, col), s[i], c[i] * n[i])));
        image[i] = std::fma(0.25f * lambda, divergence, image[i]);
      }
  }
  expect_bits("image", run.final<float>("image"), image);
  expect_bits("c", run.final<float>("c"), c);
}

TEST(HarmoniaSuite, bpt) {
  ProgramRun run("harmonia/bpt");
  RUN_OR_FAIL(run);
  constexpr int kOrder = 64, kSlots = kOrder + 1;
  std::vector<int32_t> gaps = run.initial<int32_t>("gaps"), records = run.initial<int32_t>("records"),
                       queries = run.initial<int32_t>("queries");
  // Answers: a query's record if some key 4 i + gap[i] equals it, else -1 (a lookup
  // in the sorted keys, independent of the tree).
  std::vector<int32_t> answers(queries.size(), -1);
  for (size_t q = 0; q < queries.size(); ++q) {
    int32_t i = queries[q] / 4;
    if (4 * i + gaps[size_t(i)] == queries[q]) answers[q] = records[size_t(i)];
  }
  std::vector<int32_t> got = run.final<int32_t>("answers");
  Mismatches m("answers");
  for (size_t q = 0; q < got.size(); ++q) m.exact(q, got[q], answers[q]);
  // The built leaves (the last level, first node at the last build launch's level_first):
  // slot j of leaf l holds record l * order + j.
  std::vector<int32_t> keys = run.final<int32_t>("keys"), children = run.final<int32_t>("children");
  const size_t first_leaf = size_t(run.arg(2, 3).get<int>());
  Mismatches leaves("leaf keys");
  for (size_t r = 0; r < records.size(); ++r) {
    size_t slot = (first_leaf + r / kOrder) * kSlots + r % kOrder;
    leaves.exact(r, keys[slot], 4 * int32_t(r) + gaps[r]);
    leaves.exact(r, children[slot], int32_t(r));
  }
}

TEST(HarmoniaSuite, graph500) {
  ProgramRun run("harmonia/graph500");
  RUN_OR_FAIL(run);
  std::vector<int32_t> row_ptr = run.initial<int32_t>("row_ptr"), col = run.initial<int32_t>("col");
  // The level buffer holds the last BFS (from the last bfs_init's root); levels do not
  // depend on the direction of each step or the order of visits.
  int root = -1;
  for (size_t l = 0; l < run.launch_count(); ++l)
    if (run.arg(l, 0) == "level") root = run.arg(l, 2).get<int>();
  ASSERT_GE(root, 0);
  std::vector<int32_t> level = gpupm::test::bfs_levels(row_ptr, col, root);
  std::vector<int32_t> got = run.final<int32_t>("level");
  Mismatches m("level");
  for (size_t i = 0; i < got.size(); ++i) m.exact(i, got[i], level[i]);
}

TEST(HarmoniaSuite, comd) {
  ProgramRun run("harmonia/comd");
  RUN_OR_FAIL(run);
  constexpr int kAtomsPerCell = 4;
  std::vector<float> pos = run.initial<float>("pos"), vel = run.initial<float>("vel");
  const int side = run.arg(0, 3).get<int>();
  const float box = run.arg(0, 4).get<float>(), cutoff2 = run.arg(0, 5).get<float>();
  const int n = side * side * side * kAtomsPerCell;
  std::vector<float> force(3 * static_cast<size_t>(n)), energy(static_cast<size_t>(n));
  // The kernels' operations in their order: pairs in neighbour-cell order (dz, dy, dx),
  // periodic shifts added to the neighbour's coordinates, explicit fmaf.
  auto compute_force = [&] {
    for (int i = 0; i < n; ++i) {
      int cell = i / kAtomsPerCell, cx = cell % side, cy = (cell / side) % side, cz = cell / (side * side);
      float fx = 0.0f, fy = 0.0f, fz = 0.0f, e = 0.0f;
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            int c[3] = {cx + dx, cy + dy, cz + dz};
            float shift[3];
            for (int d = 0; d < 3; ++d) {
              shift[d] = c[d] < 0 ? -box : (c[d] >= side ? box : 0.0f);
              c[d] = (c[d] + side) % side;
            }
            int first = ((c[2] * side + c[1]) * side + c[0]) * kAtomsPerCell;
            for (int j = first; j < first + kAtomsPerCell; ++j) {
              if (j == i) continue;
              float r[3];
              for (int d = 0; d < 3; ++d) r[d] = pos[size_t(d * n + i)] - (pos[size_t(d * n + j)] + shift[d]);
              float r2 = std::fma(r[2], r[2], std::fma(r[1], r[1], r[0] * r[0]));
              if (r2 >= cutoff2) continue;
              float ir2 = 1.0f / r2, ir6 = ir2 * ir2 * ir2;
              float scale = 24.0f * ir2 * ir6 * std::fma(2.0f, ir6, -1.0f);
              fx = std::fma(scale, r[0], fx);
              fy = std::fma(scale, r[1], fy);
              fz = std::fma(scale, r[2], fz);
              e = std::fma(2.0f * ir6, std::fma(ir2 * ir2, ir2, -1.0f), e);
            }
          }
      force[size_t(i)] = fx;
      force[size_t(n + i)] = fy;
      force[size_t(2 * n + i)] = fz;
      energy[size_t(i)] = e;
    }
  };
  for (const gpupm::Json& launch : launches_of(run)) {
    const std::string kernel = launch.at("kernel");
    if (kernel == "comd_force") {
      compute_force();
      continue;
    }
    const float dt = launch.at("args").at(3).get<float>();
    std::vector<float>& target = kernel == "comd_advance_velocity" ? vel : pos;
    const std::vector<float>& rate = kernel == "comd_advance_velocity" ? force : vel;
    for (size_t k = 0; k < target.size(); ++k) target[k] = std::fma(dt, rate[k], target[k]);
  }
  expect_bits("pos", run.final<float>("pos"), pos);
  expect_bits("vel", run.final<float>("vel"), vel);
  expect_bits("force", run.final<float>("force"), force);
  expect_bits("energy", run.final<float>("energy"), energy);
}

TEST(HarmoniaSuite, minife) {
  ProgramRun run("harmonia/minife");
  RUN_OR_FAIL(run);
  constexpr size_t kDotThreads = 256;
  const int side = run.arg(0, 2).get<int>();
  const size_t rows = size_t(side) * size_t(side) * size_t(side);
  std::vector<float> r = run.initial<float>("r"), x(rows, 0.0f), p(rows, 0.0f), ap(rows);
  std::vector<float> dots(run.initial<float>("dots").size());
  // y = A v over the 27 slots in (dz, dy, dx) order, skipping slots outside the mesh.
  auto matvec = [&](const std::vector<float>& v, std::vector<float>& y) {
    for (size_t row = 0; row < rows; ++row) {
      int px = int(row % size_t(side)), py = int(row / size_t(side) % size_t(side)),
          pz = int(row / size_t(side * side));
      float sum = 0.0f;
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            int nx = px + dx, ny = py + dy, nz = pz + dz;
            if (nx < 0 || nx >= side || ny < 0 || ny >= side || nz < 0 || nz >= side) continue;
            float value = (dx == 0 && dy == 0 && dz == 0) ? 26.0f : -1.0f;
            sum = std::fma(value, v[size_t((nz * side + ny) * side + nx)], sum);
          }
      y[row] = sum;
    }
  };
  // The dot product's fixed tree: pairs, a block tree, strided sums of the partials, a tree.
  auto tree_sum = [](std::vector<float> tree) {
    for (size_t half = kDotThreads / 2; half > 0; half >>= 1)
      for (size_t t = 0; t < half; ++t) tree[t] += tree[t + half];
    return tree[0];
  };
  auto dot = [&](const std::vector<float>& a, const std::vector<float>& b) {
    const size_t blocks = (rows + 2 * kDotThreads - 1) / (2 * kDotThreads);
    std::vector<float> partials(blocks), tree(kDotThreads, 0.0f);
    for (size_t block = 0; block < blocks; ++block) {
      for (size_t t = 0; t < kDotThreads; ++t) {
        size_t i = block * kDotThreads * 2 + t;
        tree[t] = i < rows ? a[i] * b[i] : 0.0f;
        if (i + kDotThreads < rows) tree[t] = std::fma(a[i + kDotThreads], b[i + kDotThreads], tree[t]);
      }
      partials[block] = tree_sum(tree);
    }
    for (size_t t = 0; t < kDotThreads; ++t) {
      tree[t] = 0.0f;
      for (size_t i = t; i < blocks; i += kDotThreads) tree[t] += partials[i];
    }
    return tree_sum(tree);
  };
  const size_t iterations = (dots.size() - 1) / 2, pap = iterations + 1;
  dots[0] = dot(r, r);
  for (size_t k = 0; k < iterations; ++k) {
    float beta = k == 0 ? 0.0f : dots[k] / dots[k - 1];
    for (size_t i = 0; i < rows; ++i) p[i] = std::fma(beta, p[i], r[i]);
    matvec(p, ap);
    dots[pap + k] = dot(p, ap);
    float alpha = dots[k] / dots[pap + k];
    for (size_t i = 0; i < rows; ++i) {
      x[i] = std::fma(alpha, p[i], x[i]);
      r[i] = std::fma(-alpha, ap[i], r[i]);
    }
    dots[k + 1] = dot(r, r);
  }
  expect_bits("x", run.final<float>("x"), x);
  expect_bits("r", run.final<float>("r"), r);
  expect_bits("dots", run.final<float>("dots"), dots);
  expect_bits("p", run.final<float>("p"), p);
  expect_bits("ap", run.final<float>("ap"), ap);
  EXPECT_LT(dots[iterations], 1e-3f * dots[0]);  // and CG converges on this well-conditioned operator
  // The assembled matrix, slot-major: slot (dz, dy, dx) of each row, -1 outside the mesh.
  std::vector<int32_t> cols = run.final<int32_t>("cols");
  std::vector<float> values = run.final<float>("values");
  Mismatches m_cols("cols"), m_values("values");
  for (size_t slot = 0; slot < 27; ++slot)
    for (size_t row = 0; row < rows; ++row) {
      int c[3] = {int(row % size_t(side)), int(row / size_t(side) % size_t(side)), int(row / size_t(side * side))};
      bool inside = true;
      for (int d = 0; d < 3; ++d) {
        c[d] += int(slot / size_t(d == 0 ? 1 : d == 1 ? 3 : 9) % 3) - 1;
        inside = inside && c[d] >= 0 && c[d] < side;
      }
      size_t at = slot * rows + row;
      m_cols.exact(at, cols[at], inside ? (c[2] * side + c[1]) * side + c[0] : -1);
      m_values.exact(at, values[at], slot == 13 ? 26.0f : -1.0f);
    }
}

// ---- voltage noise ----

TEST(VoltageNoiseSuite, nn) {
  ProgramRun run("voltage_noise/nn");
  RUN_OR_FAIL(run);
  std::vector<float> records = run.initial<float>("records");
  float lat = run.arg(0, 3).get<float>(), lng = run.arg(0, 4).get<float>();
  std::vector<float> want(records.size() / 2);
  for (size_t i = 0; i < want.size(); ++i) {  // sqrt.rn and one explicit fma: bit-identical
    float dlat = lat - records[2 * i], dlng = lng - records[2 * i + 1];
    want[i] = std::sqrt(std::fma(dlat, dlat, dlng * dlng));
  }
  expect_bits("distances", run.final<float>("distances"), want);
}

namespace {

// The Abramowitz-Stegun normal CDF the kernel evaluates, in double with exact exp.
double normal_cdf(double d) {
  double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
  double tail = 0.39894228040143267794 * std::exp(-0.5 * d * d) * poly;
  return d > 0.0 ? 1.0 - tail : tail;
}

}  // namespace

TEST(VoltageNoiseSuite, blackscholes) {
  ProgramRun run("voltage_noise/blackscholes");
  RUN_OR_FAIL(run);
  std::vector<float> price = run.initial<float>("price"), strike = run.initial<float>("strike"),
                     years = run.initial<float>("years");
  std::vector<float> call = run.final<float>("call"), put = run.final<float>("put");
  const double rate = run.arg(0, 6).get<float>(), volatility = run.arg(0, 7).get<float>();
  // The device uses lg2.approx (2^-22 absolute) and ex2.approx (2 ulp = 2^-22 relative,
  // plus |y| u from rounding y = x log2(e)); everything else is correctly rounded.
  // Error of d1: the log's 2^-22 ln2 + u (the rounded quotient) + 4u |terms| of the
  // numerator, over the denominator V sqrt(T), plus 4u |d1|; d2 adds 2u (|d1| + V sqrt(T)).
  // N(d) moves by at most phi(d) <= 0.4 per unit of d, and its own float evaluation
  // (k, exp, a 5-term Horner polynomial, all of magnitude <= 1) adds at most
  // 2^-22 (1 + d^2) + 32u. Prices: S and X e^(-rT) times those, plus the discount's
  // exp error and 4u (S + X) for the products and the difference. The bound is doubled.
  Mismatches m_call("call"), m_put("put");
  for (size_t i = 0; i < call.size(); ++i) {
    double s = price[i], x = strike[i], t = years[i];
    double root = volatility * std::sqrt(t), log_ratio = std::log(s / x);
    double d1 = (log_ratio + (rate + 0.5 * volatility * volatility) * t) / root, d2 = d1 - root;
    double n1 = normal_cdf(d1), n2 = normal_cdf(d2), discount = std::exp(-rate * t);
    double e_d1 =
        (std::ldexp(1.0, -22) * 0.7 + kU + 4 * kU * (std::fabs(log_ratio) + rate * t + 0.5 * root * root)) / root +
        4 * kU * std::fabs(d1);
    double e_d2 = e_d1 + 2 * kU * (std::fabs(d1) + root);
    auto cdf_error = [](double d, double e_d) { return 0.4 * e_d + std::ldexp(1.0, -22) * (1 + d * d) + 32 * kU; };
    double e_exp = std::ldexp(1.0, -22) + 2 * kU * rate * t;
    double tolerance =
        2 * (s * cdf_error(d1, e_d1) + x * discount * cdf_error(d2, e_d2) + x * discount * e_exp + 4 * kU * (s + x));
    m_call.near(i, call[i], s * n1 - x * discount * n2, tolerance);
    m_put.near(i, put[i], x * discount * (1 - n2) - s * (1 - n1), tolerance);
  }
}

namespace {

// A 17-tap filter along x (dx = 1) or y (dx = 0) with the kernels' fmaf order; `clamp`
// repeats edge pixels (convolutionTexture), otherwise outside pixels are 0 (convolutionSeparable).
std::vector<float> convolve(const std::vector<float>& src, const std::vector<float>& taps, int width, int height,
                            bool along_x, bool clamp) {
  const int radius = int(taps.size()) / 2;
  std::vector<float> dst(src.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float sum = 0.0f;
      for (int j = -radius; j <= radius; ++j) {
        int sx = along_x ? x + j : x, sy = along_x ? y : y + j;
        bool inside = sx >= 0 && sx < width && sy >= 0 && sy < height;
        if (clamp) sx = std::clamp(sx, 0, width - 1), sy = std::clamp(sy, 0, height - 1);
        float pixel = (inside || clamp) ? src[size_t(sy) * size_t(width) + size_t(sx)] : 0.0f;
        sum = std::fma(taps[size_t(radius - j)], pixel, sum);
      }
      dst[size_t(y) * size_t(width) + size_t(x)] = sum;
    }
  return dst;
}

void check_convolution(const std::string& program, bool clamp) {
  ProgramRun run(program);
  RUN_OR_FAIL(run);
  std::vector<float> src = run.initial<float>("src"), taps = run.initial<float>("taps");
  int width = run.arg(0, 3).get<int>(), height = run.arg(0, 4).get<int>();
  std::vector<float> rows = convolve(src, taps, width, height, true, clamp);
  expect_bits("tmp", run.final<float>("tmp"), rows);
  expect_bits("dst", run.final<float>("dst"), convolve(rows, taps, width, height, false, clamp));
}

}  // namespace

TEST(VoltageNoiseSuite, convolution_separable) { check_convolution("voltage_noise/convolution_separable", false); }
TEST(VoltageNoiseSuite, convolution_texture) { check_convolution("voltage_noise/convolution_texture", true); }

TEST(VoltageNoiseSuite, dct8x8) {
  ProgramRun run("voltage_noise/dct8x8");
  RUN_OR_FAIL(run);
  constexpr int kN = 8;
  std::vector<float> src = run.initial<float>("src"), basis = run.initial<float>("basis"),
                     table = run.initial<float>("table");
  const int width = run.arg(0, 3).get<int>(), height = int(src.size()) / width;
  // One 8 x 8 block: rows then columns, each an fmaf sum in ascending k. `forward`
  // uses basis[u][x] (coefficient u from pixels x), the inverse its transpose.
  auto transform = [&](const std::vector<float>& in, int bx, int by, bool forward, std::vector<float>& out) {
    auto b = [&](int u, int k) { return forward ? basis[size_t(u * kN + k)] : basis[size_t(k * kN + u)]; };
    auto pixel = [&](int r, int c) { return in[size_t(by * kN + r) * size_t(width) + size_t(bx * kN + c)]; };
    float rows[kN][kN];
    for (int r = 0; r < kN; ++r)
      for (int c = 0; c < kN; ++c) {
        float sum = 0.0f;
        for (int k = 0; k < kN; ++k) sum = std::fma(b(c, k), pixel(r, k), sum);
        rows[r][c] = sum;
      }
    for (int r = 0; r < kN; ++r)
      for (int c = 0; c < kN; ++c) {
        float sum = 0.0f;
        for (int k = 0; k < kN; ++k) sum = std::fma(b(r, k), rows[k][c], sum);
        out[size_t(by * kN + r) * size_t(width) + size_t(bx * kN + c)] = sum;
      }
  };
  std::vector<float> coefficients(src.size()), dst(src.size());
  for (int by = 0; by < height / kN; ++by)
    for (int bx = 0; bx < width / kN; ++bx) transform(src, bx, by, true, coefficients);
  for (size_t i = 0; i < coefficients.size(); ++i) {  // correctly rounded division, add, floor, multiply
    float q = table[(i / size_t(width) % kN) * kN + i % kN];
    coefficients[i] = std::floor(coefficients[i] / q + 0.5f) * q;
  }
  for (int by = 0; by < height / kN; ++by)
    for (int bx = 0; bx < width / kN; ++bx) transform(coefficients, bx, by, false, dst);
  expect_bits("coefficients", run.final<float>("coefficients"), coefficients);
  expect_bits("dst", run.final<float>("dst"), dst);
}

TEST(VoltageNoiseSuite, binomial_options) {
  ProgramRun run("voltage_noise/binomial_options");
  RUN_OR_FAIL(run);
  constexpr int kSteps = 512;
  std::vector<float> price = run.initial<float>("price"), strike = run.initial<float>("strike"),
                     v_dt = run.initial<float>("v_dt"), pu = run.initial<float>("pu_by_df"),
                     pd = run.initial<float>("pd_by_df");
  std::vector<float> call = run.final<float>("call"), leaves = run.final<float>("leaves");
  // Leaves: max(S e^x - X, 0) with expf = ex2.approx(x log2(e)): off by at most
  // S e^x (2^-22 for ex2.approx + |x| u for rounding x log2(e) + |x| u for rounding
  // x + 2u for the product and the difference); the max does not increase it. Doubled.
  // The tree from the device's leaves: fmaf(pu, up, pd * down) in the kernel's order,
  // bit-identical.
  Mismatches m_leaves("leaves"), m_call("call");
  for (size_t o = 0; o < call.size(); ++o) {
    std::vector<float> node(&leaves[o * (kSteps + 1)], &leaves[(o + 1) * (kSteps + 1)]);
    for (int i = 0; i <= kSteps; ++i) {
      double x = double(v_dt[o]) * (2 * i - kSteps), grown = double(price[o]) * std::exp(x);
      double tolerance = 2 * grown * (std::ldexp(1.0, -22) + (2 * std::fabs(x) + 2) * kU);
      m_leaves.near(o * (kSteps + 1) + size_t(i), node[size_t(i)], std::max(grown - strike[o], 0.0), tolerance);
    }
    for (int level = kSteps; level > 0; --level)
      for (int i = 0; i < level; ++i) node[size_t(i)] = std::fma(pu[o], node[size_t(i) + 1], pd[o] * node[size_t(i)]);
    m_call.bits(o, call[o], node[0]);
  }
}

// ---- core shut-down ----

TEST(CoreShutdownSuite, sssp) {
  ProgramRun run("core_shutdown/sssp");
  RUN_OR_FAIL(run);
  std::vector<int32_t> row_ptr = run.initial<int32_t>("row_ptr"), col = run.initial<int32_t>("col");
  std::vector<uint32_t> weight = run.initial<uint32_t>("weight");
  const int n = run.arg(0, 1).get<int>(), source = run.arg(0, 2).get<int>();
  // Dijkstra: shortest distances do not depend on the order edges are relaxed in.
  constexpr uint64_t kInfinity = 0xffffffffu;
  std::vector<uint64_t> dist(size_t(n), kInfinity);
  using Entry = std::pair<uint64_t, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  dist[size_t(source)] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    auto [d, v] = queue.top();
    queue.pop();
    if (d != dist[size_t(v)]) continue;
    for (int e = row_ptr[size_t(v)]; e < row_ptr[size_t(v) + 1]; ++e) {
      uint64_t candidate = d + weight[size_t(e)];
      if (candidate < dist[size_t(col[size_t(e)])]) {
        dist[size_t(col[size_t(e)])] = candidate;
        queue.push({candidate, col[size_t(e)]});
      }
    }
  }
  std::vector<uint32_t> got = run.final<uint32_t>("dist");
  Mismatches m("dist");
  for (size_t i = 0; i < got.size(); ++i) m.exact(i, uint64_t(got[i]), dist[i]);
  EXPECT_EQ(run.final<uint32_t>("changed")[0], 0u);  // the last round lowered nothing
}

TEST(CoreShutdownSuite, mst) {
  ProgramRun run("core_shutdown/mst");
  RUN_OR_FAIL(run);
  std::vector<int32_t> row_ptr = run.initial<int32_t>("row_ptr"), col = run.initial<int32_t>("col"),
                       edge_id = run.initial<int32_t>("edge_id");
  std::vector<uint32_t> weight = run.initial<uint32_t>("weight");
  const int n = int(row_ptr.size()) - 1;
  // Kruskal over (weight, id): with unique keys the minimum spanning forest is unique,
  // so the device's in_tree flags must be exactly it.
  std::vector<std::pair<int, int>> ends(weight.size(), {-1, -1});
  for (int v = 0; v < n; ++v)
    for (int e = row_ptr[size_t(v)]; e < row_ptr[size_t(v) + 1]; ++e)
      ends[size_t(edge_id[size_t(e)])] = {v, col[size_t(e)]};
  std::vector<size_t> order(weight.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return std::make_pair(weight[a], a) < std::make_pair(weight[b], b); });
  std::vector<int> root(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) root[size_t(v)] = v;
  auto find = [&](int x) {
    while (root[size_t(x)] != x) x = root[size_t(x)] = root[size_t(root[size_t(x)])];
    return x;
  };
  std::vector<uint32_t> in_tree(weight.size(), 0);
  for (size_t e : order) {
    int a = find(ends[e].first), b = find(ends[e].second);
    if (a == b) continue;
    root[size_t(std::max(a, b))] = std::min(a, b);
    in_tree[e] = 1;
  }
  std::vector<uint32_t> got = run.final<uint32_t>("in_tree");
  Mismatches m("in_tree");
  for (size_t e = 0; e < got.size(); ++e) m.exact(e, got[e], in_tree[e]);
  // Every node's label is a root of its own connected component, one label per component.
  std::vector<int32_t> comp = run.final<int32_t>("comp");
  std::map<int, int> label_of_component;
  Mismatches labels("comp");
  for (int v = 0; v < n; ++v) {
    int label = comp[size_t(v)];
    bool valid = label >= 0 && label < n && comp[size_t(label)] == label && find(label) == find(v);
    auto first = label_of_component.insert({find(v), label}).first;
    labels.exact(size_t(v), valid && first->second == label, true);
  }
}

TEST(CoreShutdownSuite, pvc) {
  ProgramRun run("core_shutdown/pvc");
  RUN_OR_FAIL(run);
  constexpr size_t kLineBytes = 32, kUrlBytes = 24;
  std::vector<uint8_t> log = run.initial<uint8_t>("log");
  const size_t lines = log.size() / kLineBytes;
  // Host map: each line's URL string and its FNV-1a hash.
  std::vector<std::pair<uint32_t, std::string>> pairs(lines);
  for (size_t i = 0; i < lines; ++i) {
    const char* url = reinterpret_cast<const char*>(&log[i * kLineBytes]);
    std::string text(url, strnlen(url, kUrlBytes));
    uint32_t hash = 2166136261u;
    for (unsigned char b : text) hash = (hash ^ b) * 16777619u;
    pairs[i] = {hash, text};
  }
  std::vector<uint32_t> keys = run.final<uint32_t>("keys");
  std::vector<int32_t> order = run.final<int32_t>("lines"), views = run.final<int32_t>("views");
  // The sorted keys, a permutation of the lines that carries them, and a view count at
  // the first pair of each run that equals the host's count of that URL string (so no
  // two URLs share a hash).
  std::vector<uint32_t> sorted(lines);
  std::map<std::string, int> url_views;
  for (size_t i = 0; i < lines; ++i) sorted[i] = pairs[i].first, ++url_views[pairs[i].second];
  std::sort(sorted.begin(), sorted.end());
  Mismatches m_keys("keys"), m_lines("lines"), m_views("views");
  std::vector<bool> seen(lines, false);
  for (size_t i = 0; i < lines; ++i) {
    m_keys.exact(i, keys[i], sorted[i]);
    size_t line = size_t(order[i]);
    bool fresh = line < lines && !seen[line];
    m_lines.exact(i, fresh && pairs[line].first == keys[i], true);
    if (fresh) seen[line] = true;
    bool first = i == 0 || sorted[i - 1] != sorted[i];
    m_views.exact(i, views[i], first && fresh ? url_views[pairs[line].second] : 0);
  }
}

TEST(CoreShutdownSuite, lib) {
  ProgramRun run("core_shutdown/lib");
  RUN_OR_FAIL(run);
  constexpr int kRates = 56, kMaturities = 28, kOptions = 15;
  constexpr double kDelta = 0.25;
  const int option_maturity[kOptions] = {4, 4, 4, 8, 8, 8, 12, 12, 12, 20, 20, 20, 28, 28, 28};
  const double swap_rate[kOptions] = {.045f, .05f,  .055f, .045f, .05f,  .055f, .045f, .05f,
                                      .055f, .045f, .05f,  .055f, .045f, .05f,  .055f};
  std::vector<float> shocks = run.initial<float>("shocks"), lambda = run.initial<float>("lambda");
  std::vector<float> value = run.final<float>("value");
  const size_t paths = value.size();
  // Each path in double with exact exp, and beside every quantity a first-order bound on
  // the device's absolute error: u per correctly rounded operation (fmaf, division, the
  // products; delta = 0.25 and sqrt(delta) = 0.5 scale exactly), and for expf
  // (ex2.approx of arg log2(e)) a relative 2^-22 + |arg| u + the argument's own error.
  // A swaption whose value is within its bound of 0 may take either branch on the
  // device: it adds its whole |value| + bound. The final bound is doubled.
  const double exp_error = std::ldexp(1.0, -22);
  Mismatches m("value");
  for (size_t path = 0; path < paths; ++path) {
    double rate[kRates], e_rate[kRates];
    for (int i = 0; i < kRates; ++i) rate[i] = 0.05f, e_rate[i] = 0.0;
    for (int n = 0; n < kMaturities; ++n) {
      double shock = 0.5 * shocks[size_t(n) * paths + path], drift = 0.0, e_drift = 0.0;
      for (int i = n + 1; i < kRates; ++i) {
        double lam = lambda[size_t(i - n - 1)], con = kDelta * lam;
        double den = 1.0 + kDelta * rate[i], e_den = kDelta * e_rate[i] + kU * den;
        double q = rate[i] / den, e_q = (e_rate[i] + q * e_den) / den + kU * q;
        drift += con * q;
        e_drift += con * e_q + kU * std::fabs(drift);
        double inner = shock - 0.5 * con, t = lam * inner;
        double arg = con * drift + t;
        double e_arg = con * e_drift + lam * kU * std::fabs(inner) + kU * std::fabs(t) + kU * std::fabs(arg);
        double growth = std::exp(arg);
        rate[i] *= growth;
        e_rate[i] = e_rate[i] * growth + rate[i] * (exp_error + std::fabs(arg) * kU + e_arg + kU);
      }
    }
    double b = 1.0, e_b = 0.0, s = 0.0, e_s = 0.0, discount[kRates], e_discount[kRates], annuity[kRates],
           e_annuity[kRates];
    for (int n = kMaturities; n < kRates; ++n) {
      double den = 1.0 + kDelta * rate[n], e_den = kDelta * e_rate[n] + kU * den;
      b /= den;
      e_b = (e_b + b * e_den) / den + kU * b;
      s += kDelta * b;
      e_s += kDelta * e_b + kU * s;
      discount[n] = b, e_discount[n] = e_b, annuity[n] = s, e_annuity[n] = e_s;
    }
    double v = 0.0, e_v = 0.0;
    for (int o = 0; o < kOptions; ++o) {
      int mat = option_maturity[o] + kMaturities - 1;
      double sum = swap_rate[o] * annuity[mat] + discount[mat], swap = sum - 1.0;
      double e_swap = swap_rate[o] * e_annuity[mat] + e_discount[mat] + kU * (sum + std::fabs(swap));
      if (swap < 0.0) v -= 100.0 * swap;
      e_v += (std::fabs(swap) <= e_swap ? 100.0 * (std::fabs(swap) + e_swap) : 100.0 * e_swap) + kU * v;
    }
    for (int n = 0; n < kMaturities; ++n) {
      double den = 1.0 + kDelta * rate[n], e_den = kDelta * e_rate[n] + kU * den;
      v /= den;
      e_v = (e_v + v * e_den) / den + kU * v;
    }
    m.near(path, value[path], v, 2 * e_v);
  }
}

namespace {

// SP's host sweep, every float operation in the device's order and rounding (sp.cu):
// the chance that `var` is forced to violate the clause of `edge`, from the other edges' surveys.
float sp_forced_against(const std::vector<int32_t>& var_row, const std::vector<int32_t>& var_edges,
                        const std::vector<uint8_t>& negated, const std::vector<float>& eta, int edge, int var) {
  float same = 1.0f, opposite = 1.0f;
  for (int k = var_row[size_t(var)]; k < var_row[size_t(var) + 1]; ++k) {
    int other = var_edges[size_t(k)];
    if (other == edge) continue;
    float keep = 1.0f - eta[size_t(other)];
    if (negated[size_t(other)] == negated[size_t(edge)]) same *= keep;
    else opposite *= keep;
  }
  float denominator = std::fma(-same, opposite, same + opposite);
  return denominator > 0.0f ? (1.0f - opposite) * same / denominator : 0.0f;
}

}  // namespace

TEST(CoreShutdownSuite, sp) {
  ProgramRun run("core_shutdown/sp");
  RUN_OR_FAIL(run);
  std::vector<int32_t> clause_var = run.initial<int32_t>("clause_var"), var_row = run.initial<int32_t>("var_row"),
                       var_edges = run.initial<int32_t>("var_edges");
  std::vector<uint8_t> negated = run.initial<uint8_t>("negated");
  const size_t clauses = run.arg(0, 7).get<size_t>(), vars = var_row.size() - 1;
  const float eps = run.arg(0, 8).get<float>(), fix_threshold = run.arg(1, 9).get<float>();
  const unsigned max_sweeps = run.arg(0, 9).get<unsigned>();
  // Jacobi sweeps until no survey moves by more than eps or max_sweeps, bit for bit.
  std::vector<float> eta = run.initial<float>("eta0"), next(eta.size());
  unsigned sweeps = 0;
  float change;
  do {
    change = 0.0f;
    for (size_t c = 0; c < clauses; ++c) {
      float chance[3];
      for (int k = 0; k < 3; ++k) {
        int edge = int(3 * c) + k;
        chance[k] = sp_forced_against(var_row, var_edges, negated, eta, edge, clause_var[size_t(edge)]);
      }
      for (int k = 0; k < 3; ++k) {
        float first = chance[(k + 1) % 3], second = chance[(k + 2) % 3];
        change = std::max(change, std::fabs(std::fma(first, second, -eta[3 * c + size_t(k)])));
        next[3 * c + size_t(k)] = first * second;
      }
    }
    eta.swap(next);
    ++sweeps;
  } while (change > eps && sweeps < max_sweeps);
  std::vector<uint32_t> state = run.final<uint32_t>("state");
  EXPECT_EQ(state[0], 0u);
  EXPECT_EQ(state[1], sweeps);
  EXPECT_EQ(state[2], 0u);
  // The last sweep wrote eta1 after an odd count, eta0 after an even one; the other holds the one before.
  expect_bits(sweeps % 2 ? "eta1" : "eta0", run.final<float>(sweeps % 2 ? "eta1" : "eta0"), eta);
  expect_bits(sweeps % 2 ? "eta0" : "eta1", run.final<float>(sweeps % 2 ? "eta0" : "eta1"), next);
  // Biases W+ - W- and the variables they fix, then each clause's state.
  std::vector<float> bias(vars);
  std::vector<int32_t> assign(vars);
  for (size_t v = 0; v < vars; ++v) {
    float positive = 1.0f, negative = 1.0f;
    for (int k = var_row[v]; k < var_row[v + 1]; ++k) {
      int edge = var_edges[size_t(k)];
      (negated[size_t(edge)] ? negative : positive) *= 1.0f - eta[size_t(edge)];
    }
    float to_false = (1.0f - negative) * positive;
    float total = std::fma(positive, negative, std::fma(1.0f - positive, negative, to_false));
    bias[v] = total > 0.0f ? std::fma(1.0f - positive, negative, -to_false) / total : 0.0f;
    assign[v] = bias[v] >= fix_threshold ? 1 : (bias[v] <= -fix_threshold ? -1 : 0);
  }
  expect_bits("bias", run.final<float>("bias"), bias);
  std::vector<int32_t> got_assign = run.final<int32_t>("assign"), clause_state = run.final<int32_t>("clause_state");
  Mismatches m_assign("assign"), m_clauses("clause_state");
  for (size_t v = 0; v < vars; ++v) m_assign.exact(v, got_assign[v], assign[v]);
  for (size_t c = 0; c < clauses; ++c) {
    int satisfied = 0, falsified = 0;
    for (size_t k = 0; k < 3; ++k) {
      int value = assign[size_t(clause_var[3 * c + k])], wanted = negated[3 * c + k] ? -1 : 1;
      satisfied |= value == wanted;
      falsified += value == -wanted;
    }
    m_clauses.exact(c, clause_state[c], satisfied ? 1 : (falsified == 3 ? -1 : 0));
  }
}

TEST(CoreShutdownSuite, pvr) {
  ProgramRun run("core_shutdown/pvr");
  RUN_OR_FAIL(run);
  constexpr size_t kLineBytes = 32, kUrlBytes = 24;
  std::vector<uint8_t> log = run.initial<uint8_t>("log");
  const size_t lines = log.size() / kLineBytes;
  // Host map: each line's (FNV-1a hash of the URL, client id) key, URL string and client.
  std::vector<uint64_t> line_key(lines);
  std::map<std::string, std::set<uint32_t>> url_clients;
  std::map<uint32_t, std::string> url_of_hash;
  for (size_t i = 0; i < lines; ++i) {
    const char* url = reinterpret_cast<const char*>(&log[i * kLineBytes]);
    std::string text(url, strnlen(url, kUrlBytes));
    uint32_t hash = 2166136261u, client;
    for (unsigned char b : text) hash = (hash ^ b) * 16777619u;
    std::memcpy(&client, &log[i * kLineBytes + kUrlBytes], 4);
    line_key[i] = (uint64_t(hash) << 32) | client;
    url_clients[text].insert(client);
    EXPECT_EQ(url_of_hash.insert({hash, text}).first->second, text) << "two URLs share hash " << hash;
  }
  std::vector<uint64_t> sorted = line_key;
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint64_t> keys = run.final<uint64_t>("keys");
  std::vector<int32_t> order = run.final<int32_t>("lines"), visitors = run.final<int32_t>("visitors");
  // The sorted keys, a permutation of the lines that carries them, and at the first key of
  // each URL the host's count of distinct clients of that URL string (0 elsewhere).
  Mismatches m_keys("keys"), m_lines("lines"), m_visitors("visitors");
  std::vector<bool> seen(lines, false);
  for (size_t i = 0; i < lines; ++i) {
    m_keys.exact(i, keys[i], sorted[i]);
    size_t line = size_t(order[i]);
    bool fresh = line < lines && !seen[line];
    m_lines.exact(i, fresh && line_key[line] == keys[i], true);
    if (fresh) seen[line] = true;
    bool first = i == 0 || (sorted[i - 1] >> 32) != (sorted[i] >> 32);
    m_visitors.exact(i, visitors[i], first ? int(url_clients[url_of_hash[uint32_t(sorted[i] >> 32)]].size()) : 0);
  }
}

// ---- SM allocation ----

TEST(SmAllocationSuite, gups) {
  ProgramRun run("sm_allocation/gups");
  RUN_OR_FAIL(run);
  constexpr uint64_t kPoly = 0x7;  // HPCC: x^64 = x^2 + x + 1
  std::vector<uint64_t> table = run.initial<uint64_t>("table");
  const std::vector<uint64_t> starts = run.initial<uint64_t>("starts");
  const uint64_t per_thread = run.arg(0, 2).get<uint64_t>();
  ASSERT_EQ(table.size(), uint64_t(1) << run.arg(0, 3).get<int>());
  ASSERT_EQ(run.arg(0, 4).get<uint64_t>(), kPoly);  // the kernel's feedback (a parameter: gups.cu says why)
  // HPCC's own verification: the whole stream from 1, update by update. The threads'
  // pieces, each from its start, are this stream cut in order, and xor commutes, so the
  // atomic updates leave exactly this table (a wrong start file fails here too).
  const uint64_t mask = table.size() - 1;
  uint64_t ran = 1;
  for (uint64_t i = 0; i < starts.size() * per_thread; ++i) {
    ran = (ran << 1) ^ (int64_t(ran) < 0 ? kPoly : 0);
    table[ran & mask] ^= ran;
  }
  const std::vector<uint64_t> got = run.final<uint64_t>("table");
  ASSERT_EQ(got.size(), table.size());
  Mismatches m("table");
  for (size_t i = 0; i < got.size(); ++i) m.exact(i, got[i], table[i]);
}

namespace {

// Rodinia hotspot's time step of the whole grid as hotspot.cu computes each cell:
// the same fmaf chain, edge cells their own missing neighbour. The pyramid computes
// every cell of a launch's iterations from correct neighbours, so it is this, bit for bit.
struct HotspotStep {
  int rows, cols;
  float step_div_cap, rx_1, ry_1, rz_1;  // the kernel's divisions (div.rn: correctly rounded)

  explicit HotspotStep(const gpupm::Json& args)
      : rows(args.at(5).get<int>()),
        cols(args.at(4).get<int>()),
        step_div_cap(args.at(12).get<float>() / args.at(8).get<float>()),
        rx_1(1.0f / args.at(9).get<float>()),
        ry_1(1.0f / args.at(10).get<float>()),
        rz_1(1.0f / args.at(11).get<float>()) {}

  std::vector<float> operator()(const std::vector<float>& temp, const std::vector<float>& power) const {
    auto at = [&](int r, int c) {
      return temp[size_t(std::clamp(r, 0, rows - 1)) * size_t(cols) + size_t(std::clamp(c, 0, cols - 1))];
    };
    std::vector<float> next(temp.size());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const size_t i = size_t(r) * size_t(cols) + size_t(c);
        const float t = temp[i];
        const float vertical = std::fma(-2.0f, t, at(r + 1, c) + at(r - 1, c));
        const float horizontal = std::fma(-2.0f, t, at(r, c + 1) + at(r, c - 1));
        const float flow = std::fma(80.0f - t, rz_1, std::fma(horizontal, rx_1, std::fma(vertical, ry_1, power[i])));
        next[i] = std::fma(step_div_cap, flow, t);
      }
    return next;
  }
};

}  // namespace

TEST(SmAllocationSuite, hotspot) {
  ProgramRun run("sm_allocation/hotspot");
  RUN_OR_FAIL(run);
  const std::vector<float> power = run.initial<float>("power");
  std::vector<float> temp = run.initial<float>("temp0");
  // Every launch advances the previous launch's result by its pyramid's steps into its
  // destination buffer (temp0 -> temp1 -> temp0 ...); each buffer ends as its last writer left it.
  std::map<std::string, std::vector<float>> want;
  std::string previous = "temp0";
  for (size_t l = 0; l < run.launch_count(); ++l) {
    const gpupm::Json& args = run.launch(l).at("args");
    ASSERT_EQ(args.at(2).get<std::string>(), previous) << "launch " << l << " does not read the last result";
    const HotspotStep step(args);
    for (int i = 0; i < args.at(0).get<int>(); ++i) temp = step(temp, power);
    previous = args.at(3).get<std::string>();
    want[previous] = temp;
  }
  for (const auto& [name, values] : want) expect_bits(name, run.final<float>(name), values);
}
