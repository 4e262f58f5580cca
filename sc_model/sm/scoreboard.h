// Per-warp scoreboards. A profile warp's (Scoreboard): the cycle at which each of
// the last 64 instructions' results is available. An instruction reads the result of the one `dep`
// earlier; a load's slot stays pending until all its lines are back, and an
// instruction whose slot would overwrite a pending load waits (register reuse).
// A program warp's (RegisterScoreboard): the cycle each register's value is there.
#pragma once

#include "gpupm/ptx/ptx.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

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

// Per register: the cycle its value is there, Scoreboard::kPending while a load or
// atomic that writes it is outstanding (matched by the tag the LSU reports back).
class RegisterScoreboard {
 public:
  struct PendingLoad {
    uint64_t tag;
    uint8_t n;
    std::array<uint16_t, 4> regs;
  };

  // A new CTA's warp: no load outstanding, tags from 0 (the storage stays).
  void reset() {
    loads_.clear();
    next_tag_ = 0;
  }
  // `num_regs` registers, all there.
  void start(uint32_t num_regs) { ready_.assign(num_regs, 0); }
  // When `in` may issue: every source there, and every destination (a value still
  // on its way from memory must not be overwritten). Scoreboard::kPending: a load.
  uint64_t ready_for(const ptx::InstInfo& in) const {
    uint64_t r = 0;
    for (uint8_t i = 0; i < in.n_src; ++i) r = std::max(r, ready_[in.src[i]]);
    for (uint8_t i = 0; i < in.n_dst; ++i) r = std::max(r, ready_[in.dst[i]]);
    return r;
  }
  void set(const uint16_t* regs, uint8_t n, uint64_t cycle) {
    for (uint8_t i = 0; i < n; ++i) ready_[regs[i]] = cycle;
  }
  // The tag of the next memory access handed to the LSU.
  uint64_t new_tag() { return next_tag_++; }
  // The access `tag` writes `regs[0..n)` when it completes: pending until then.
  void expect_load(uint64_t tag, uint8_t n, const std::array<uint16_t, 4>& regs) {
    set(regs.data(), n, Scoreboard::kPending);
    loads_.push_back({tag, n, regs});
  }
  // Load `tag` is back: its registers are there at `cycle`. Calls `wrote(n, regs)`
  // with the registers it wrote, read in place (not copied out: this runs for every
  // load a program warp makes). False for a tag not outstanding (nothing called).
  template <class Wrote>
  bool complete(uint64_t tag, uint64_t cycle, Wrote&& wrote) {
    for (size_t i = 0; i < loads_.size(); ++i) {
      if (loads_[i].tag != tag) continue;
      const PendingLoad& done = loads_[i];
      set(done.regs.data(), done.n, cycle);
      wrote(done.n, done.regs.data());
      loads_.erase(loads_.begin() + long(i));
      return true;
    }
    return false;
  }
  size_t pending_loads() const { return loads_.size(); }

 private:
  std::vector<uint64_t> ready_;
  std::vector<PendingLoad> loads_;
  uint64_t next_tag_ = 0;
};

}  // namespace gpupm
