// Where a line lives. Channels interleave at interleave_bytes granularity
// modulo the channel count (6 is not a power of two, so plain division).
// Inside a channel the line index splits, lowest bits first, into the column
// (position in a row), the bank, then the row: a sequential stream reads a
// whole row before moving to the next bank, so it gets row-buffer hits.
#pragma once

#include "mem/mem_config.h"

#include <cstdint>

namespace gpupm {

struct DramLocation {
  uint32_t bank = 0;
  uint64_t row = 0;
};

class AddressMap {
 public:
  explicit AddressMap(const MemConfig& c)
      : lines_per_chunk_(c.interleave_bytes / c.line_bytes),
        channels_(c.channels),
        lines_per_row_(c.row_bytes / c.line_bytes),
        banks_(c.banks) {}

  uint32_t channel(uint64_t line) const { return uint32_t(line / lines_per_chunk_ % channels_); }
  uint64_t local_line(uint64_t line) const {
    return line / lines_per_chunk_ / channels_ * lines_per_chunk_ + line % lines_per_chunk_;
  }
  uint32_t column(uint64_t local) const { return uint32_t(local % lines_per_row_); }
  DramLocation dram(uint64_t local) const {
    uint64_t bank_and_row = local / lines_per_row_;
    return {uint32_t(bank_and_row % banks_), bank_and_row / banks_};
  }
  // Inverse of (channel, local_line): lets tests aim at one slice, set or bank.
  uint64_t global_line(uint32_t channel, uint64_t local) const {
    uint64_t chunk = local / lines_per_chunk_ * channels_ + channel;
    return chunk * lines_per_chunk_ + local % lines_per_chunk_;
  }

 private:
  uint64_t lines_per_chunk_;
  uint64_t channels_;
  uint64_t lines_per_row_;
  uint64_t banks_;
};

}  // namespace gpupm
