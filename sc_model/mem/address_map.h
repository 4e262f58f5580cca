// Where a line lives. Channels interleave at interleave_bytes granularity
// modulo the channel count (6 is not a power of two, so plain division).
// Inside a channel the line index splits, lowest bits first, into the column
// (position in a row), the bank, then the row: a sequential stream reads a
// whole row before moving to the next bank, so it gets row-buffer hits.
#pragma once

#include "common/divisor.h"
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

  uint32_t channel(uint64_t line) const { return uint32_t(channels_.mod(lines_per_chunk_.div(line))); }
  uint64_t local_line(uint64_t line) const {
    return channels_.div(lines_per_chunk_.div(line)) * lines_per_chunk_.value() + lines_per_chunk_.mod(line);
  }
  uint32_t column(uint64_t local) const { return uint32_t(lines_per_row_.mod(local)); }
  DramLocation dram(uint64_t local) const {
    const uint64_t bank_and_row = lines_per_row_.div(local);
    const uint64_t row = banks_.div(bank_and_row);
    return {uint32_t(bank_and_row - row * banks_.value()), row};
  }
  // Inverse of (channel, local_line): lets tests aim at one slice, set or bank.
  uint64_t global_line(uint32_t channel, uint64_t local) const {
    uint64_t chunk = lines_per_chunk_.div(local) * channels_.value() + channel;
    return chunk * lines_per_chunk_.value() + lines_per_chunk_.mod(local);
  }

 private:
  // Divisions on every request's path: no divide instruction (common/divisor.h).
  Divisor lines_per_chunk_;
  Divisor channels_;
  Divisor lines_per_row_;
  Divisor banks_;
};

}  // namespace gpupm
