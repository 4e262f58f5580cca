// Set-associative tag array with true LRU (data is not modelled: timing only).
// A unified L1/shared array lends some of its ways to shared memory: only the
// first active_ways() ways then hold lines (set_active_ways).
// L1Policy chooses when a missing line takes its way (at the fill, or reserved at
// the miss as GPGPU-Sim's allocate-on-miss caches do) and the set index (line mod
// sets, or Fermi's hash of the address bits).
#pragma once

#include "gpupm/common/divisor.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpupm {

struct L1Policy {
  // A miss reserves its way (reserve(): LRU stamp then) and the fill only makes the
  // line valid; a set whose active ways all wait for fills cannot take a miss.
  bool allocate_on_miss = false;
  // Fermi's set index (Nugteren et al., HPCA 2014, as GPGPU-Sim's FERMI_HASH_SET_FUNCTION):
  // 32 or 64 sets of 128-byte lines.
  bool fermi_hash = false;
};

class L1Cache {
 public:
  L1Cache(uint32_t sets, uint32_t ways, L1Policy policy = {})
      : sets_(sets),
        ways_(ways),
        active_ways_(ways),
        policy_(policy),
        tags_(size_t(sets) * ways, kEmpty),
        stamps_(size_t(sets) * ways, 0),
        reserved_(policy.allocate_on_miss ? size_t(sets) * ways : 0, 0) {}
  uint32_t active_ways() const { return active_ways_; }
  // Keeps lines in the first `n` ways of every set (1..ways); the lines of the
  // ways given up are lost (the L1 is write-through: nothing to write back).
  void set_active_ways(uint32_t n) {
    for (size_t set = 0; set < tags_.size(); set += ways_)
      for (uint32_t w = n; w < active_ways_; ++w) drop(set + w);
    active_ways_ = n;
  }
  // Looks up a line address (in lines); a hit refreshes its LRU position. A line
  // still waiting for its fill is no hit.
  bool access(uint64_t line) {
    size_t base = set_of(line) * ways_;
    for (uint32_t w = 0; w < active_ways_; ++w) {
      if (tags_[base + w] == line) {
        if (waiting(base + w)) return false;
        stamps_[base + w] = ++clock_;
        latest_hit_ = line;
        latest_hit_clock_ = clock_;
        return true;
      }
    }
    return false;
  }
  // Whether `line` is access()'s latest hit and the clock has not moved since (a hit,
  // fill, reserved or merged miss, drop or clear moves it), so a hit on it would change
  // no LRU order and may be counted without access() (an instruction cache's warps run
  // on in a line).
  bool is_newest_hit(uint64_t line) const { return line == latest_hit_ && clock_ == latest_hit_clock_; }
  bool contains(uint64_t line) const {
    size_t base = set_of(line) * ways_;
    for (uint32_t w = 0; w < active_ways_; ++w)
      if (tags_[base + w] == line) return !waiting(base + w);
    return false;
  }
  // A miss on `line`. Allocate-on-miss: takes a way for it until its fill: the
  // first empty way, else the least recently used way not itself waiting for a
  // fill; false (nothing changes) when every active way of the set waits for one.
  // At-fill allocation needs no way yet: true.
  bool reserve(uint64_t line) {
    if (!policy_.allocate_on_miss) return true;
    const size_t base = set_of(line) * ways_;
    size_t victim = kNone;
    for (size_t i = base; i < base + active_ways_; ++i) {
      if (reserved_[i]) continue;
      if (tags_[i] == kEmpty) {
        victim = i;
        break;
      }
      if (victim == kNone || stamps_[i] < stamps_[victim]) victim = i;
    }
    if (victim == kNone) return false;
    tags_[victim] = line;
    stamps_[victim] = ++clock_;
    reserved_[victim] = 1;
    return true;
  }
  // A merged miss on a line waiting for its fill refreshes its LRU position, as a
  // hit does (GPGPU-Sim's HIT_RESERVED).
  void touch_waiting(uint64_t line) {
    if (!policy_.allocate_on_miss) return;
    const size_t base = set_of(line) * ways_;
    for (size_t i = base; i < base + active_ways_; ++i)
      if (tags_[i] == line && waiting(i)) stamps_[i] = ++clock_;
  }
  // A line came back. Allocate-on-miss: its reserved way becomes valid (its LRU
  // stamp stays the miss's; a line invalidated meanwhile is not brought in).
  // Else: inserts it (a present one is only refreshed, as by access()) into the
  // first empty way of its set, else evicting its least recently used way (the
  // first of equals). One pass over the set.
  void fill(uint64_t line) {
    const size_t base = set_of(line) * ways_;
    if (policy_.allocate_on_miss) {
      for (size_t i = base; i < base + active_ways_; ++i)
        if (tags_[i] == line && reserved_[i]) reserved_[i] = 0;
      return;
    }
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
      if (tags_[base + w] == line) drop(base + w);
  }
  void clear() {
    std::fill(tags_.begin(), tags_.end(), kEmpty);
    std::fill(stamps_.begin(), stamps_.end(), 0);
    std::fill(reserved_.begin(), reserved_.end(), 0);
    ++clock_;  // ends the newest hit, as drop() does
  }
  // Fermi's set of a 128-byte line (32 or 64 sets): address bits 7-11 XOR bits
  // 13-15, 17 and 19; with 64 sets, bit 12 on top.
  static uint32_t fermi_set(uint64_t line, uint32_t sets) {
    const uint64_t addr = line << 7;
    uint32_t upper = uint32_t((addr & 0xE000) >> 13);
    upper |= uint32_t((addr & 0x20000) >> 14);
    upper |= uint32_t((addr & 0x80000) >> 15);
    uint32_t set = (uint32_t(addr >> 7) & 0x1F) ^ upper;
    if (sets == 64) set |= uint32_t((addr & 0x1000) >> 7);
    return set;
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t(0);
  static constexpr size_t kNone = ~size_t(0);
  size_t set_of(uint64_t line) const {
    return policy_.fermi_hash ? fermi_set(line, uint32_t(sets_.value())) : size_t(sets_.mod(line));
  }
  bool waiting(size_t way) const { return policy_.allocate_on_miss && reserved_[way]; }
  // Moves the clock as a stamp would (only stamps' order counts), which ends the newest hit.
  void drop(size_t way) {
    ++clock_;
    tags_[way] = kEmpty;
    stamps_[way] = 0;
    if (policy_.allocate_on_miss) reserved_[way] = 0;
  }
  Divisor sets_;
  uint32_t ways_;         // the tag array's stride
  uint32_t active_ways_;  // the ways holding lines
  L1Policy policy_;
  std::vector<uint64_t> tags_;
  std::vector<uint64_t> stamps_;
  std::vector<uint8_t> reserved_;  // allocate-on-miss: the way waits for its line's fill
  uint64_t clock_ = 0;             // moves at every stamp, drop and clear
  uint64_t latest_hit_ = kEmpty;   // the line access() hit last (no line is kEmpty)
  uint64_t latest_hit_clock_ = 0;  // and the clock then
};

}  // namespace gpupm
