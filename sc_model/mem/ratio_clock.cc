#include "gpupm/mem/ratio_clock.h"

#include <cmath>

namespace gpupm {

RatioClock RatioClock::from_ratio(double ratio) {
  // Continued-fraction convergents h/k of the ratio, stopping when exact enough
  // or when the denominator would exceed the bound.
  constexpr uint64_t kMaxDen = 100000;
  uint64_t h_prev = 0, h = 1, k_prev = 1, k = 0;
  double rest = ratio;
  for (int i = 0; i < 64; ++i) {
    double a = std::floor(rest);
    uint64_t ai = uint64_t(a);
    uint64_t h_next = ai * h + h_prev, k_next = ai * k + k_prev;
    if (k_next > kMaxDen) break;
    h_prev = h, h = h_next, k_prev = k, k = k_next;
    if (std::fabs(ratio - double(h) / double(k)) <= 1e-12 * ratio) break;
    double frac = rest - a;
    if (frac < 1e-15) break;
    rest = 1.0 / frac;
  }
  if (h == 0) h = 1;  // validation keeps the ratio well above 1/kMaxDen
  return RatioClock(h, k);
}

}  // namespace gpupm

namespace gpupm {

void RatioClock::retime(uint64_t c0, const RatioClock& r) {
  Segment& last = seg_.back();
  if (r.p() == last.p && r.q() == last.q) return;
  if (c0 == last.c0 && seg_.size() > 1) {  // changed twice at one edge: the later one holds
    last.p = r.p();
    last.q = r.q();
    return;
  }
  seg_.push_back({c0, index_at(c0), r.p(), r.q()});  // a few per kernel launch at most
}

}  // namespace gpupm
