// Which entry of a small table holds a line: open addressing with linear
// probing over a power-of-two array at least four times the entries, so a
// lookup is a probe or two instead of a walk over every entry (the L1 MSHRs:
// one lookup per missing line and per fill).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpupm {

class LineTable {
 public:
  explicit LineTable(uint32_t entries) {
    size_t n = 8;
    while (n < size_t(entries) * 4) n <<= 1;
    slots_.assign(n, Slot{});
    mask_ = n - 1;
  }
  // The entry holding `line`, or -1.
  int find(uint64_t line) const {
    for (size_t i = home(line);; i = (i + 1) & mask_) {
      if (slots_[i].entry < 0) return -1;
      if (slots_[i].line == line) return slots_[i].entry;
    }
  }
  void insert(uint64_t line, int entry) {
    size_t i = home(line);
    while (slots_[i].entry >= 0) i = (i + 1) & mask_;
    slots_[i] = Slot{line, entry};
  }
  // Removes `line` (present), shifting later probes back so no lookup stops early.
  void erase(uint64_t line) {
    size_t i = home(line);
    while (slots_[i].line != line || slots_[i].entry < 0) i = (i + 1) & mask_;
    for (size_t j = (i + 1) & mask_; slots_[j].entry >= 0; j = (j + 1) & mask_) {
      const size_t h = home(slots_[j].line);
      // slots_[j] may fill the hole at i unless its home lies cyclically in (i, j].
      if (((j - h) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].entry = -1;
  }

 private:
  struct Slot {
    uint64_t line = 0;
    int entry = -1;
  };
  size_t home(uint64_t line) const { return size_t((line * 0x9E3779B97F4A7C15ull) >> 32) & mask_; }
  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

}  // namespace gpupm
