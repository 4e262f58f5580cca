// The interconnect/L2 clock derived from the DRAM command clock of the same
// domain: exactly p of every q command edges are L2 edges (p/q = l2_clock_ratio
// as an exact fraction), command cycle 0 being one. Integer arithmetic only, so
// the count of L2 cycles never drifts.
#pragma once

#include <cstdint>

namespace gpupm {

class RatioClock {
 public:
  RatioClock(uint64_t p, uint64_t q) : p_(p), q_(q) {}
  // The closest fraction with a denominator up to 100000 (700/924 -> 25/33).
  static RatioClock from_ratio(double ratio);

  uint64_t p() const { return p_; }
  uint64_t q() const { return q_; }
  bool is_edge(uint64_t cmd) const { return cmd == 0 || index_at(cmd) != index_at(cmd - 1); }
  uint64_t index_at(uint64_t cmd) const { return cmd * p_ / q_; }  // last L2 edge <= cmd
  uint64_t cmd_of(uint64_t k) const { return (k * q_ + p_ - 1) / p_; }  // command cycle of edge k
  uint64_t first_at_or_after(uint64_t cmd) const { return cmd == 0 ? 0 : (cmd - 1) * p_ / q_ + 1; }
  uint64_t edges_through(uint64_t cmd) const { return index_at(cmd) + 1; }

 private:
  uint64_t p_, q_;
};

}  // namespace gpupm
