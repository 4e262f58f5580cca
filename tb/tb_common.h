// Shared helpers of the RTL-vs-C++ lock-step testbenches (plain C++, no SystemC):
// run length and seed from the environment, optional VCD, a Verilated-model
// harness, first-mismatch reporting and named coverage bins.
//
// Environment:
//   GPUPM_TB_CYCLES  cycles per test (default 200000, the ctest setting;
//                    use 1000000 or more for a full run)
//   GPUPM_TB_SEED    stimulus seed (default 1)
//   GPUPM_TB_VCD     directory: dump <dir>/<test>.vcd of the whole run (large:
//                    use with a small GPUPM_TB_CYCLES)
//   GPUPM_TB_COVERAGE 0: report coverage but do not require every bin (for
//                    short runs; the default block's directed preamble alone
//                    takes about 150000 cycles)
#pragma once

#include "gpupm/controllers/rtl_harness.h"

#include <verilated.h>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace gpupm::tb {

inline uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  return std::strtoull(v, nullptr, 0);
}

inline uint64_t run_cycles() { return env_u64("GPUPM_TB_CYCLES", 200000); }
inline uint64_t run_seed() { return env_u64("GPUPM_TB_SEED", 1); }
inline bool coverage_required() { return env_u64("GPUPM_TB_COVERAGE", 1) != 0; }

using gpupm::rtl::Harness;  // sc_model/controllers/rtl_harness.h

// First mismatch of a cycle: collects (signal, expected, actual).
class Compare {
 public:
  void check(const char* signal, uint64_t expected, uint64_t actual) {
    if (expected != actual && first_.empty()) {
      std::ostringstream s;
      s << "signal " << signal << ": expected (C++) " << expected << ", actual (RTL) " << actual;
      first_ = s.str();
    }
    if (expected != actual) ++mismatches_;
  }
  bool ok() const { return mismatches_ == 0; }
  const std::string& first() const { return first_; }
  unsigned mismatches() const { return mismatches_; }

 private:
  std::string first_;
  unsigned mismatches_ = 0;
};

// Named coverage bins; every declared bin must be hit at least once.
class Coverage {
 public:
  void declare(const std::string& bin) { bins_.emplace(bin, 0); }
  void hit(const std::string& bin) { ++bins_[bin]; }
  void hit_if(bool cond, const std::string& bin) {
    if (cond) hit(bin);
  }
  std::vector<std::string> missing() const {
    std::vector<std::string> m;
    for (const auto& [bin, n] : bins_)
      if (n == 0) m.push_back(bin);
    return m;
  }
  std::string report() const {
    std::ostringstream s;
    for (const auto& [bin, n] : bins_) s << "  " << bin << " " << n << "\n";
    return s.str();
  }
  size_t size() const { return bins_.size(); }

 private:
  std::map<std::string, uint64_t> bins_;
};

// Compares raw output vectors (port order, `signals` their names) from index `first` on.
template <std::size_t N>
Compare compare_raw(const std::vector<std::string>& signals, const std::array<uint64_t, N>& want,
                    const std::array<uint64_t, N>& got, std::size_t first = 0) {
  Compare c;
  for (std::size_t i = first; i < N; ++i) c.check(signals[i].c_str(), want[i], got[i]);
  return c;
}

// Prints the coverage counts after `summary` and, unless GPUPM_TB_COVERAGE=0,
// fails the test when a bin was never hit.
inline void finish_coverage(const std::string& name, const std::string& summary, const Coverage& cov) {
  std::printf("[ coverage ] %s: %s, %zu bins\n%s", name.c_str(), summary.c_str(), cov.size(), cov.report().c_str());
  const auto missing = cov.missing();
  if (coverage_required()) {
    EXPECT_TRUE(missing.empty()) << name << ": " << missing.size()
                                 << " coverage bin(s) never hit, first: " << (missing.empty() ? "" : missing.front());
  }
}

// Assigns a value to a Verilated port of any scalar width.
template <class T>
inline void set_port(T& port, uint64_t value) {
  port = static_cast<T>(value);
}
// ... or of a wide one (VlWide<N>): 32-bit words, LSB first.
template <std::size_t N>
inline void set_port(VlWide<N>& port, const std::vector<uint32_t>& words) {
  for (std::size_t i = 0; i < N; ++i) port[i] = i < words.size() ? words[i] : 0;
}

inline uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

}  // namespace gpupm::tb
