// Small, fast, seedable PRNG (splitmix64 seeding, xoshiro256** core): the same
// seed gives the same stream on every platform, unlike std:: distributions.
#pragma once

#include <cstdint>

namespace gpupm {

inline uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Mixes several identifiers into one seed.
inline uint64_t seed_of(uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0) {
  uint64_t s = a;
  uint64_t h = splitmix64(s);
  s ^= b + h;
  h = splitmix64(s);
  s ^= c + h;
  h = splitmix64(s);
  s ^= d + h;
  return splitmix64(s);
}

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }
  void reseed(uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n) (n > 0), via 128-bit multiply (no modulo bias worth noting).
  uint64_t below(uint64_t n) { return uint64_t((__uint128_t(next()) * n) >> 64); }
  // Uniform in [0, 1).
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
  bool chance(double p) { return uniform() < p; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace gpupm
