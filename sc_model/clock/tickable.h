#pragma once

#include <cstdint>
#include <limits>

namespace gpupm {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// A block clocked by a ClockDomain. The domain calls tick() on every edge at
// which some block may have work; cycles in which nothing can happen are skipped,
// so tick() sees the true cycle number and must account for the gap itself.
// A block added ClockDomain::add_when_due() is called only from the cycle it
// is next busy or after a wake for it.
class Tickable {
 public:
  virtual ~Tickable() = default;
  virtual void tick(uint64_t cycle) = 0;
  // Earliest cycle after `now` in which tick() may do work without outside input
  // (a TLM call that wakes the domain); kNever when only outside input can.
  virtual uint64_t next_busy_cycle(uint64_t now) const = 0;
};

}  // namespace gpupm
