// The interconnect/L2 clock derived from the DRAM command clock of the same
// domain: exactly p of every q command edges are L2 edges (p/q = l2_clock_ratio
// as an exact fraction), command cycle 0 being one. Integer arithmetic only, so
// the count of L2 cycles never drifts.
//
// The ratio may change during a run (retime(): the L2 following the SM clock,
// MemConfig::l2_clock "core"): from command cycle c0 on, with k0 the last L2
// edge at or before c0 under the old ratio, index_at(cmd) = k0 + (cmd - c0) p / q.
// A ratio above 1 puts several L2 edges on one command edge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpupm {

class RatioClock {
 public:
  RatioClock(uint64_t p, uint64_t q) : seg_{{0, 0, p, q}} {}
  // The closest fraction with a denominator up to 100000 (700/924 -> 25/33).
  static RatioClock from_ratio(double ratio);

  uint64_t p() const { return seg_.back().p; }
  uint64_t q() const { return seg_.back().q; }
  bool is_edge(uint64_t cmd) const { return cmd == 0 || index_at(cmd) != index_at(cmd - 1); }
  uint64_t index_at(uint64_t cmd) const {  // last L2 edge <= cmd
    const Segment& s = at_cmd(cmd);
    return s.k0 + (cmd - s.c0) * s.p / s.q;
  }
  uint64_t cmd_of(uint64_t k) const {  // command cycle of edge k
    const Segment& s = at_edge(k);
    return s.c0 + ((k - s.k0) * s.q + s.p - 1) / s.p;
  }
  uint64_t first_at_or_after(uint64_t cmd) const { return cmd == 0 ? 0 : index_at(cmd - 1) + 1; }
  uint64_t edges_through(uint64_t cmd) const { return index_at(cmd) + 1; }
  // From command cycle c0 on (c0 >= every earlier change), the ratio is p/q of `r`.
  void retime(uint64_t c0, const RatioClock& r);

 private:
  struct Segment {
    uint64_t c0, k0, p, q;
  };
  const Segment& at_cmd(uint64_t cmd) const {
    for (size_t i = seg_.size(); i-- > 1;)
      if (cmd >= seg_[i].c0) return seg_[i];
    return seg_[0];
  }
  const Segment& at_edge(uint64_t k) const {
    for (size_t i = seg_.size(); i-- > 1;)
      if (k > seg_[i].k0) return seg_[i];
    return seg_[0];
  }
  std::vector<Segment> seg_;
};

}  // namespace gpupm
