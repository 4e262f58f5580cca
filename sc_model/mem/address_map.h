// Where a line lives. Channels interleave at interleave_bytes granularity
// modulo the channel count (6 is not a power of two, so plain division);
// "hashed" channel indexing rotates each run of `channels` chunks by a hash of
// the run's index (every run still covers each channel once).
// Inside a channel the line index splits, lowest bits first, into the column
// (position in a row), the bank, then the row: a sequential stream reads a
// whole row before moving to the next bank, so it gets row-buffer hits.
#pragma once

#include "gpupm/common/divisor.h"
#include "gpupm/mem/mem_config.h"

#include <cstdint>

namespace gpupm {

struct LinePlace {
  uint32_t channel = 0;
  uint64_t local_line = 0;
};

struct DramLocation {
  uint32_t bank = 0;
  uint64_t row = 0;
};

class AddressMap {
 public:
  explicit AddressMap(const MemConfig& c)
      : lines_per_chunk_(c.interleave_bytes / c.line_bytes),
        channels_(c.channels),
        hashed_(c.hashed_channels),
        lines_per_row_(c.row_bytes / c.line_bytes),
        banks_(c.banks) {}

  // A line's channel and its index inside the channel, dividing the line by the chunk
  // and the chunk by the channels once (every request asks both).
  LinePlace place(uint64_t line) const {
    const uint64_t chunk = lines_per_chunk_.div(line);
    const uint64_t run = channels_.div(chunk);  // the run of `channels` chunks it is in
    const uint64_t in_chunk = line - chunk * lines_per_chunk_.value();
    const uint64_t channel = hashed_ ? channels_.mod(chunk + rotation(run)) : chunk - run * channels_.value();
    return {uint32_t(channel), run * lines_per_chunk_.value() + in_chunk};
  }
  uint32_t column(uint64_t local) const { return uint32_t(lines_per_row_.mod(local)); }
  DramLocation dram(uint64_t local) const {
    const uint64_t bank_and_row = lines_per_row_.div(local);
    const uint64_t row = banks_.div(bank_and_row);
    return {uint32_t(bank_and_row - row * banks_.value()), row};
  }
  // Inverse of (channel, local_line): lets tests aim at one slice, set or bank.
  uint64_t global_line(uint32_t channel, uint64_t local) const {
    const uint64_t run = lines_per_chunk_.div(local);
    const uint64_t n = channels_.value();
    const uint64_t offset = hashed_ ? (channel + n - channels_.mod(rotation(run))) % n : channel;
    return (run * n + offset) * lines_per_chunk_.value() + lines_per_chunk_.mod(local);
  }

 private:
  // A run's rotation: a multiplicative hash (Fibonacci hashing), its high bits.
  static uint64_t rotation(uint64_t run) { return (run * 0x9E3779B97F4A7C15ull) >> 40; }
  // Divisions on every request's path: no divide instruction (common/divisor.h).
  Divisor lines_per_chunk_;
  Divisor channels_;
  bool hashed_;
  Divisor lines_per_row_;
  Divisor banks_;
};

}  // namespace gpupm
