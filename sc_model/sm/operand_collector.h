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

#include <array>
#include <cstdint>
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
