// The SM's instruction cache (Fermi: 2 KB; voltage-noise paper Sec. 4.2): a
// set-associative LRU tag array over the kernel's code lines, a miss list that
// merges the warps waiting on the same line, and the line requests it sends to
// the memory system through the SM's mem_out (instruction lines live in the
// kernel's own code region, so L2 hits and DRAM misses are the real ones).
// A warp whose next instruction misses has no instruction to issue until the
// line comes back; when a kernel's code is larger than the cache and its warps
// loop over it, misses recur, stall whole SMs and release them together.
#pragma once

#include "gpupm/sm/l1_cache.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace gpupm {

class InstructionCache {
 public:
  InstructionCache(uint32_t bytes, uint32_t ways, uint32_t line_bytes)
      : tags_(std::max<uint32_t>(1, bytes / line_bytes / std::max<uint32_t>(1, ways)), std::max<uint32_t>(1, ways)) {}

  // A fetch of `line` by warp slot `warp`: true on a hit; on a miss the warp is
  // recorded as waiting (and a request queued unless one is out already).
  // Inline up to a hit: every instruction a warp issues is fetched.
  [[gnu::always_inline]] bool fetch(uint64_t line, uint16_t warp) {
    // Most fetches: the latest hit's line again, still the newest (no tag search).
    if (tags_.is_newest_hit(line) || tags_.access(line)) {
      ++hits_;
      return true;
    }
    miss(line, warp);
    return false;
  }
  bool owns(uint64_t line) const {
    for (const Miss& m : misses_out_)
      if (m.line == line) return true;
    return false;
  }
  // The line came back: it is installed; the warps that waited on it are returned.
  std::vector<uint16_t> fill(uint64_t line) {
    tags_.fill(line);
    std::vector<uint16_t> waiters;
    for (size_t i = 0; i < misses_out_.size(); ++i)
      if (misses_out_[i].line == line) {
        waiters = std::move(misses_out_[i].waiters);
        misses_out_.erase(misses_out_.begin() + long(i));
        break;
      }
    return waiters;
  }
  bool has_request() const { return !requests_.empty(); }
  uint64_t front_request() const { return requests_.front(); }
  void pop_request() { requests_.pop_front(); }
  void invalidate_all() { tags_.clear(); }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  // Out of line: rare, and fetch() stays small.
  [[gnu::noinline]] void miss(uint64_t line, uint16_t warp) {
    ++misses_;
    for (Miss& m : misses_out_)
      if (m.line == line) {
        m.waiters.push_back(warp);
        return;
      }
    misses_out_.push_back({line, {warp}});
    requests_.push_back(line);
  }
  struct Miss {
    uint64_t line;
    std::vector<uint16_t> waiters;
  };
  L1Cache tags_;
  std::vector<Miss> misses_out_;
  std::deque<uint64_t> requests_;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace gpupm
