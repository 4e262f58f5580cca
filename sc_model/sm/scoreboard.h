// Per-warp scoreboard: the cycle at which each of the last 64 instructions'
// results is available. An instruction reads the result of the one `dep`
// earlier; a load's slot stays pending until all its lines are back, and an
// instruction whose slot would overwrite a pending load waits (register reuse).
#pragma once

#include <array>
#include <cstdint>
#include <limits>

namespace gpupm {

class Scoreboard {
 public:
  static constexpr uint64_t kPending = std::numeric_limits<uint64_t>::max();
  static constexpr uint32_t kWindow = 64;

  void reset() { ready_.fill(0); }
  // Cycle at which instruction `index` (depending on `dep` earlier) may issue;
  // kPending while a load it needs, or the slot it reuses, is outstanding.
  uint64_t ready_at(uint64_t index, uint32_t dep) const {
    uint64_t own = ready_[index % kWindow];
    if (own == kPending) return kPending;
    if (dep == 0) return 0;
    return ready_[(index - dep) % kWindow];
  }
  void set(uint64_t index, uint64_t cycle) { ready_[index % kWindow] = cycle; }
  void set_pending(uint64_t index) { ready_[index % kWindow] = kPending; }

 private:
  std::array<uint64_t, kWindow> ready_{};
};

}  // namespace gpupm
