#include "gpupm/sm/operand_collector.h"

#include "gpupm/common/exhaustive_switch.h"

#include <algorithm>
#include <stdexcept>

namespace gpupm {

namespace {
// kPools counts the pools up to Mem: a new pool must enter this switch, and then this assert.
GPUPM_EXHAUSTIVE_SWITCHES_BEGIN
constexpr bool last_pool(OperandCollector::Pool p) {
  switch (p) {
    case OperandCollector::Pool::Alu:
    case OperandCollector::Pool::Sfu: return false;
    case OperandCollector::Pool::Mem: return true;
  }
  return false;
}
GPUPM_EXHAUSTIVE_SWITCHES_END
static_assert(last_pool(OperandCollector::Pool::Mem), "kPools is sized by the last pool");
}  // namespace

OperandCollector::OperandCollector(const SmConfig& cfg)
    : reads_per_cycle_(cfg.collector_reads), banks_(cfg.register_banks), booked_(cfg.register_banks) {
  for (auto& b : booked_) b.fill(0);
  units_[size_t(Pool::Alu)].free_cycle.assign(cfg.collector_units_alu, 0);
  units_[size_t(Pool::Sfu)].free_cycle.assign(cfg.collector_units_sfu, 0);
  units_[size_t(Pool::Mem)].free_cycle.assign(cfg.collector_units_mem, 0);
}

// Beyond the horizon the calendar cannot hold a booking: taken as free,
// unbooked (far from any real wait).
bool OperandCollector::free_at(uint32_t bank, uint64_t t) const {
  return t >= now_ + kHorizon || booked_[bank][t % kHorizon] != t + 1;
}

void OperandCollector::book(uint32_t bank, uint64_t t) {
  if (t < now_ + kHorizon) booked_[bank][t % kHorizon] = t + 1;
}

// The pool's earliest-free unit, taken at c + 1 by an instruction issued at c.
[[gnu::always_inline]] inline void OperandCollector::take_unit(Pool pool, uint64_t c) {
  const UnitRing& ring = units_[size_t(pool)];
  if (ring.free_cycle[ring.head] > c + 1)
    throw std::logic_error("gpupm/sm: an instruction issued with no free collector unit");
  now_ = c;
}

// The taken unit (the ring's first) dispatches, and is free, at t: it moves to
// its place in the order, and the next earliest-free unit becomes the first.
[[gnu::always_inline]] inline void OperandCollector::release_unit(Pool pool, uint64_t t) {
  UnitRing& ring = units_[size_t(pool)];
  uint64_t* free_cycle = ring.free_cycle.data();
  const uint32_t size = uint32_t(ring.free_cycle.size());
  const uint32_t head = ring.head + 1 == size ? 0 : ring.head + 1;
  uint32_t slot = ring.head;  // now the ring's last place
  for (uint32_t placed = 1; placed < size; ++placed) {
    const uint32_t before = slot == 0 ? size - 1 : slot - 1;
    if (free_cycle[before] <= t) break;
    free_cycle[slot] = free_cycle[before];
    slot = before;
  }
  free_cycle[slot] = t;
  ring.head = head;
  issue_ready_[size_t(pool)] = free_cycle[head] == 0 ? 0 : free_cycle[head] - 1;
}

// free_at() and book() on each operand's bank calendar, looked up once.
[[gnu::always_inline]] inline uint8_t OperandCollector::calendars(uint32_t warp, const uint16_t* regs, uint8_t n,
                                                                  uint64_t** calendar) {
  const uint8_t m = std::min(n, kMaxOperands);
  for (uint8_t i = 0; i < m; ++i) calendar[i] = booked_[bank_of(warp, regs[i])].data();
  return m;
}

uint32_t OperandCollector::collect(Pool pool, uint64_t c, uint32_t warp, const uint16_t* regs, uint8_t n) {
  // The default's loop without the reads count (collect() runs for every program instruction).
  return reads_per_cycle_ == 1 ? collect_reading<true>(pool, c, warp, regs, n)
                               : collect_reading<false>(pool, c, warp, regs, n);
}

// Each cycle the unit reads the first operands still missing whose banks are free:
// one (kOneRead), or up to reads_per_cycle_.
template <bool kOneRead>
uint32_t OperandCollector::collect_reading(Pool pool, uint64_t c, uint32_t warp, const uint16_t* regs, uint8_t n) {
  take_unit(pool, c);
  const uint64_t first_read = c + 2;  // the unit is taken at c + 1
  std::array<uint64_t*, kMaxOperands> calendar;
  const uint8_t m = calendars(warp, regs, n, calendar.data());
  uint32_t missing = (1u << m) - 1;  // bit i: operand i not read yet
  const uint64_t horizon = now_ + kHorizon;
  uint64_t t = first_read;
  for (; missing != 0; ++t) {
    if (t >= horizon) {  // every bank free from here on: full reads per cycle, unbooked
      const uint32_t left = uint32_t(__builtin_popcount(missing));
      t += kOneRead ? left : cycles_for(left);
      break;
    }
    uint32_t reads = 0;
    for (uint32_t left = missing; left != 0; left &= left - 1) {
      const uint32_t i = uint32_t(__builtin_ctz(left));
      uint64_t& cell = calendar[i][t % kHorizon];
      if (cell == t + 1) continue;  // booked at t (by another unit, or by this one for a same-bank operand)
      cell = t + 1;
      missing &= ~(1u << i);
      if (kOneRead || ++reads == reads_per_cycle_) break;
    }
  }
  release_unit(pool, t);
  return uint32_t(t - (first_read + (kOneRead ? m : cycles_for(m))));
}

void OperandCollector::write_back(uint64_t t, uint32_t warp, uint16_t reg) {
  if (t < now_) return;  // no read is booked in the past
  const uint32_t bank = bank_of(warp, reg);
  while (!free_at(bank, t)) ++t;
  book(bank, t);
}

}  // namespace gpupm
