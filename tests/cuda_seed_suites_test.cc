// The seed suites' CUDA programs (configs/workloads/cuda/harmonia/,
// voltage_noise/, core_shutdown/) end to end: gpupm compiles and runs each on the
// GTX 480 model with --dump-inputs/--dump-buffers, and the host recomputes every
// output buffer from the dumped inputs. Integers must match exactly; kernels that
// spell every float operation out (explicit fmaf, fixed order) are repeated bit
// for bit; the rest get a tolerance derived where it is used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <queue>

#include "support/program_check.h"

using gpupm::test::kU;
using gpupm::test::Mismatches;
using gpupm::test::ProgramRun;

namespace {

// The workload's launch entries (kernel names and `repeat`, which ProgramRun does not expose).
gpupm::Json launches_of(const std::string& program) {
  const std::string stem = program.substr(program.rfind('/') + 1);
  return gpupm::load_json_file(gpupm::test::source_path("configs/workloads/cuda/" + program + "/" + stem + ".json"))
      .at("launches");
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
  for (const gpupm::Json& launch : launches_of("harmonia/maxflops")) {
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
  std::vector<uint32_t> keys = run.initial<uint32_t>("keys");
  std::sort(keys.begin(), keys.end());
  std::vector<uint32_t> got = run.final<uint32_t>("keys");
  ASSERT_EQ(got.size(), keys.size());
  Mismatches m("keys");
  for (size_t i = 0; i < got.size(); ++i) m.exact(i, got[i], keys[i]);
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
