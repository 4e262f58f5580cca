// The kernel's current time, read inline: sc_time_stamp() is a call into the SystemC
// library that looks the simulation context up each time, and the memory path asks
// for the time several times a line. And a time in whole picoseconds, without a library call.
#pragma once

#include <systemc>

#include <cstdint>

namespace gpupm {

// What sc_time_stamp() returns, from the context `block` was made in.
inline const sc_core::sc_time& time_now(const sc_core::sc_object& block) { return block.simcontext()->time_stamp(); }

// `t` in whole picoseconds, rounded as uint64_t(t.to_seconds() * 1e12 + 0.5) bit for bit,
// without the library call at a 1 fs resolution (a Gpu's): to_seconds() multiplies value()
// by the resolution in fs, exactly 1.0 then, and by 1e-15. The resolution is read once:
// a process has one, fixed before any time is made.
inline uint64_t rounded_picoseconds(const sc_core::sc_time& t) {
  static const bool fs_resolution = sc_core::sc_get_time_resolution().to_seconds() == 1e-15;
  const double seconds = fs_resolution ? double(t.value()) * 1e-15 : t.to_seconds();
  return uint64_t(seconds * 1e12 + 0.5);
}

}  // namespace gpupm
