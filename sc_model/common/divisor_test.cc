#include "gpupm/common/divisor.h"

#include <gtest/gtest.h>

#include <random>

namespace gpupm {
namespace {

// Every divisor the configs use and awkward ones, against the divide
// instruction, on small, large, boundary and random dividends.
TEST(Divisor, MatchesDivision) {
  std::mt19937_64 rng(7);
  for (uint64_t d : {1ull, 2ull, 3ull, 5ull, 6ull, 7ull, 12ull, 16ull, 64ull, 100ull, 128ull, 641ull, 1000003ull,
                     (1ull << 31) - 1, (1ull << 31) + 1, (1ull << 32) - 1, (1ull << 32) + 3, (1ull << 40) + 7}) {
    Divisor v(d);
    std::vector<uint64_t> xs = {
        0, 1, d - 1, d, d + 1, 2 * d - 1, (1ull << 63) - 1, 1ull << 63, ~0ull, (1ull << 63) - d, (1ull << 40) - 1};
    for (int i = 0; i < 20000; ++i) xs.push_back(rng() >> (rng() % 64));
    for (uint64_t k = 1; k < 1000; ++k) xs.push_back(k * d - 1), xs.push_back(k * d);
    for (uint64_t x : xs) {
      ASSERT_EQ(v.div(x), x / d) << x << " / " << d;
      ASSERT_EQ(v.mod(x), x % d) << x << " % " << d;
    }
  }
}

}  // namespace
}  // namespace gpupm
