// Set-associative tag array with true LRU (data is not modelled: timing only).
// A unified L1/shared array lends some of its ways to shared memory: only the
// first active_ways() ways then hold lines (set_active_ways).
#pragma once

#include "gpupm/common/divisor.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpupm {

class L1Cache {
 public:
  L1Cache(uint32_t sets, uint32_t ways)
      : sets_(sets),
        ways_(ways),
        active_ways_(ways),
        tags_(size_t(sets) * ways, kEmpty),
        stamps_(size_t(sets) * ways, 0) {}
  uint32_t active_ways() const { return active_ways_; }
  // Keeps lines in the first `n` ways of every set (1..ways); the lines of the
  // ways given up are lost (the L1 is write-through: nothing to write back).
  void set_active_ways(uint32_t n) {
    for (size_t set = 0; set < tags_.size(); set += ways_)
      for (uint32_t w = n; w < active_ways_; ++w) {
        tags_[set + w] = kEmpty;
        stamps_[set + w] = 0;
      }
    active_ways_ = n;
  }
  // Looks up a line address (in lines); a hit refreshes its LRU position.
  bool access(uint64_t line) {
    size_t base = set_of(line) * ways_;
    for (uint32_t w = 0; w < active_ways_; ++w) {
      if (tags_[base + w] == line) {
        stamps_[base + w] = ++clock_;
        return true;
      }
    }
    return false;
  }
  bool contains(uint64_t line) const {
    size_t base = set_of(line) * ways_;
    for (uint32_t w = 0; w < active_ways_; ++w)
      if (tags_[base + w] == line) return true;
    return false;
  }
  // Inserts a line (a present one is only refreshed, as by access()), into the
  // first empty way of its set, else evicting its least recently used way (the
  // first of equals). One pass over the set.
  void fill(uint64_t line) {
    const size_t base = set_of(line) * ways_;
    size_t empty = kNone, oldest = base;
    for (size_t i = base; i < base + active_ways_; ++i) {
      if (tags_[i] == line) {
        stamps_[i] = ++clock_;
        return;
      }
      if (tags_[i] == kEmpty && empty == kNone) empty = i;
      if (stamps_[i] < stamps_[oldest]) oldest = i;
    }
    const size_t victim = empty != kNone ? empty : oldest;
    tags_[victim] = line;
    stamps_[victim] = ++clock_;
  }
  void invalidate(uint64_t line) {
    size_t base = set_of(line) * ways_;
    for (uint32_t w = 0; w < active_ways_; ++w)
      if (tags_[base + w] == line) {
        tags_[base + w] = kEmpty;
        stamps_[base + w] = 0;
      }
  }
  void clear() {
    std::fill(tags_.begin(), tags_.end(), kEmpty);
    std::fill(stamps_.begin(), stamps_.end(), 0);
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t(0);
  static constexpr size_t kNone = ~size_t(0);
  size_t set_of(uint64_t line) const { return size_t(sets_.mod(line)); }
  Divisor sets_;
  uint32_t ways_;         // the tag array's stride
  uint32_t active_ways_;  // the ways holding lines
  std::vector<uint64_t> tags_;
  std::vector<uint64_t> stamps_;
  uint64_t clock_ = 0;
};

}  // namespace gpupm
