// Division by a divisor fixed at elaboration (cache sets, line bytes, channels,
// banks) without the divide instruction, which costs tens of cycles where it
// sits on every memory request's path: a shift for a power of two, else a
// multiply by a precomputed reciprocal (Granlund & Montgomery 1994), exact for
// every dividend below 2^63 (larger ones, never an address here, take the slow way).
#pragma once

#include <cstdint>

namespace gpupm {

class Divisor {
  using u128 = unsigned __int128;

 public:
  explicit Divisor(uint64_t d = 1) : d_(d ? d : 1) {
    uint32_t l = 0;  // ceil(log2 d)
    while ((uint64_t(1) << l) < d_) ++l;
    if ((uint64_t(1) << l) == d_) {
      shift_ = l;
      return;
    }
    // m = ceil(2^(63 + l) / d) < 2^64, so x * m < 2^127 for x < 2^63.
    const u128 p = u128(1) << (63 + l);
    magic_ = uint64_t(p / d_ + (p % d_ != 0));
    post_ = 63 + l;
  }
  uint64_t value() const { return d_; }
  uint64_t div(uint64_t x) const {
    if (post_ == 0) return x >> shift_;
    if (x >> 63) return x / d_;
    return uint64_t(u128(x) * magic_ >> post_);
  }
  uint64_t mod(uint64_t x) const { return post_ == 0 ? x & (d_ - 1) : x - div(x) * d_; }

 private:
  uint64_t d_;
  uint64_t magic_ = 0;
  uint32_t shift_ = 0;
  uint32_t post_ = 0;  // 0: a power of two (shift_)
};

}  // namespace gpupm
