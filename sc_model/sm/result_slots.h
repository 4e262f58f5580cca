// The cycles in which an SM's ALU pipes return results, when they return at most
// one each a cycle (SmConfig::alu_one_result_per_cycle; GPGPU-Sim's
// simd_function_unit keeps the same as `occupied` bits, and an instruction goes to
// whichever SP unit can take it): a ring of per-cycle counts over the next kSpan
// cycles, cleared as the cycles pass.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>

namespace gpupm {

class ResultSlots {
 public:
  // Longer than any ALU latency (SmConfig allows 1000) plus the wait for a free cycle.
  static constexpr uint64_t kSpan = 4096;

  explicit ResultSlots(uint32_t per_cycle) : per_cycle_(per_cycle) {
    if (per_cycle == 0 || per_cycle > 255) throw std::logic_error("gpupm/sm: result slots per cycle out of range");
  }

  // The first cycle from `earliest` on at which an instruction can enter a pipe
  // with a result slot free in its result's cycle (entry + result_stage); takes it.
  // `now` (never decreasing, at most `earliest`): results before it are returned.
  uint64_t take(uint64_t now, uint64_t earliest, uint32_t result_stage) {
    if (now < base_ || earliest < now) throw std::logic_error("gpupm/sm: result slots asked out of order");
    forget_before(now);
    uint64_t entry = earliest;
    while (taken(entry + result_stage) >= per_cycle_) ++entry;
    if (entry + result_stage >= base_ + kSpan)
      throw std::logic_error("gpupm/sm: an ALU result beyond the result slots");
    ++counts_[(entry + result_stage) % kSpan];
    return entry;
  }
  // Results taken for `cycle` (not yet returned).
  uint32_t taken(uint64_t cycle) const { return cycle >= base_ ? counts_[cycle % kSpan] : 0; }

 private:
  // Results before `cycle` have been returned: their counts are cleared for the cycles kSpan later.
  void forget_before(uint64_t cycle) {
    if (cycle <= base_) return;
    if (cycle - base_ >= kSpan) {
      counts_.fill(0);
    } else {
      for (uint64_t c = base_; c < cycle; ++c) counts_[c % kSpan] = 0;
    }
    base_ = cycle;
  }

  uint32_t per_cycle_;
  std::array<uint8_t, kSpan> counts_{};
  uint64_t base_ = 0;  // the cycles before it are forgotten
};

}  // namespace gpupm
