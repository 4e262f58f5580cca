// Register-file banks and operand-collector units, for program instructions
// (statistical profiles have no register numbers and never come here).
// The design follows GPGPU-Sim's Fermi operand collector (docs/papers.md#equalizer-gpu
// names the simulator); the code is our own and event-timed:
//  - an issued warp instruction takes a collector unit of its pool (ALU, SFU,
//    memory) in the cycle after issue; no free unit then, no issue;
//  - from the cycle after that the unit reads collector_reads register sources
//    per cycle (1 by default): the first still missing (operand order) whose
//    banks are free that cycle (register r of warp slot w lives in bank
//    (r + w) mod register_banks; a bank serves one access per cycle, a result
//    written back takes it too);
//  - the unit is free again the cycle its last operand is in (dispatch).
// So with one read a cycle a 3-source FMA holds a unit 4 cycles: 6 ALU units
// sustain 1.5 per cycle, less when reads meet busy banks (GPGPU-Sim's units read
// every source whose bank is free: collector_reads 3 or more). A read that waits
// for its bank delays the instruction's dispatch, and so its result, by the cycles
// it waited beyond the conflict-free ones.
#pragma once

#include "gpupm/common/divisor.h"
#include "gpupm/common/exhaustive_switch.h"
#include "gpupm/ptx/ptx.h"
#include "gpupm/sm/sm_config.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gpupm {

class OperandCollector {
 public:
  enum class Pool : uint8_t { Alu, Sfu, Mem };
  static constexpr size_t kPools = size_t(Pool::Mem) + 1;  // Mem last: operand_collector.cc checks it

  explicit OperandCollector(const SmConfig& cfg);

  // The earliest cycle an instruction of `pool` may issue (a unit free the cycle after).
  // Asked for every warp the schedulers consider: kept, not searched for.
  uint64_t issue_ready(Pool pool) const { return issue_ready_[size_t(pool)]; }
  // Collects the `n` register sources of an instruction issued at `c` by warp
  // slot `warp`: the cycles its dispatch waits for busy banks (0 conflict-free).
  uint32_t collect(Pool pool, uint64_t c, uint32_t warp, const uint16_t* regs, uint8_t n);
  // A result for register `reg` of warp slot `warp` written back at cycle `t`
  // takes its bank for one cycle (the next free one if a read holds it).
  void write_back(uint64_t t, uint32_t warp, uint16_t reg);

 private:
  // Bank bookings within kHorizon cycles of the latest issue: slot t % kHorizon
  // holds t + 1 while bank access t is booked (0: never booked).
  static constexpr uint64_t kHorizon = 128;

  uint32_t bank_of(uint32_t warp, uint16_t reg) const {
    const uint32_t x = uint32_t(reg) + warp;
    return uint32_t(banks_.mod(x));  // a power of two (the usual 16) is a mask
  }
  uint64_t cycles_for(uint32_t reads) const {  // conflict-free
    return reads_per_cycle_ == 1 ? reads : (reads + reads_per_cycle_ - 1) / reads_per_cycle_;
  }
  static constexpr uint8_t kMaxOperands = 8;
  void take_unit(Pool pool, uint64_t c);
  void release_unit(Pool pool, uint64_t t);
  uint8_t calendars(uint32_t warp, const uint16_t* regs, uint8_t n, uint64_t** calendar);
  template <bool kOneRead>
  uint32_t collect_reading(Pool pool, uint64_t c, uint32_t warp, const uint16_t* regs, uint8_t n);
  bool free_at(uint32_t bank, uint64_t t) const;
  void book(uint32_t bank, uint64_t t);

  const uint32_t reads_per_cycle_;
  Divisor banks_;
  std::vector<std::array<uint64_t, kHorizon>> booked_;  // per bank
  // A pool's units are alike, so only their free cycles are kept: a ring in
  // ascending order from `head`, whose first is the unit the next issue takes.
  // A unit released later than the rest (the usual case) goes back to the end
  // in one comparison, where a search for the earliest cost one per unit. Not
  // the memory system's Ring FIFO: on it fma_loop ran 2.7% more instructions
  // (docs/speed.md, "Tried and not kept").
  struct UnitRing {
    std::vector<uint64_t> free_cycle;
    uint32_t head = 0;
  };
  std::array<UnitRing, kPools> units_;
  std::array<uint64_t, kPools> issue_ready_{};  // per pool: from its earliest-free unit
  uint64_t now_ = 0;                            // the latest issue cycle seen
};

// ---------------------------------------------------------------- inline: every program instruction

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

// Each cycle the unit reads the first operands still missing whose banks are free:
// one (kOneRead), or up to reads_per_cycle_.
template <bool kOneRead>
[[gnu::always_inline]] inline uint32_t OperandCollector::collect_reading(Pool pool, uint64_t c, uint32_t warp,
                                                                         const uint16_t* regs, uint8_t n) {
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

// One read a cycle (the default): the loop without the reads count.
[[gnu::always_inline]] inline uint32_t OperandCollector::collect(Pool pool, uint64_t c, uint32_t warp,
                                                                 const uint16_t* regs, uint8_t n) {
  return reads_per_cycle_ == 1 ? collect_reading<true>(pool, c, warp, regs, n)
                               : collect_reading<false>(pool, c, warp, regs, n);
}

// Beyond the horizon the calendar cannot hold a booking: taken as free,
// unbooked (far from any real wait).
inline bool OperandCollector::free_at(uint32_t bank, uint64_t t) const {
  return t >= now_ + kHorizon || booked_[bank][t % kHorizon] != t + 1;
}

inline void OperandCollector::book(uint32_t bank, uint64_t t) {
  if (t < now_ + kHorizon) booked_[bank][t % kHorizon] = t + 1;
}

inline void OperandCollector::write_back(uint64_t t, uint32_t warp, uint16_t reg) {
  if (t < now_) return;  // no read is booked in the past
  const uint32_t bank = bank_of(warp, reg);
  while (!free_at(bank, t)) ++t;
  book(bank, t);
}

// The collector-unit pool of a PTX instruction class (a barrier reads no register,
// its pool is never asked): every class named, so a new one cannot fall into a pool
// unnoticed. Inline: the schedulers ask it for every program warp they consider.
GPUPM_EXHAUSTIVE_SWITCHES_BEGIN
inline OperandCollector::Pool collector_pool(ptx::TimingClass cls) {
  switch (cls) {
    case ptx::TimingClass::Alu: return OperandCollector::Pool::Alu;
    case ptx::TimingClass::Sfu: return OperandCollector::Pool::Sfu;
    case ptx::TimingClass::Load:
    case ptx::TimingClass::Store:
    case ptx::TimingClass::Atomic:
    case ptx::TimingClass::Shared:
    case ptx::TimingClass::Barrier: return OperandCollector::Pool::Mem;
  }
  return OperandCollector::Pool::Mem;
}
GPUPM_EXHAUSTIVE_SWITCHES_END

}  // namespace gpupm
