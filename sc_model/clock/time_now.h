// The kernel's current time, read inline: sc_time_stamp() is a call into the SystemC
// library that looks the simulation context up each time, and the memory path asks
// for the time several times a line.
#pragma once

#include <systemc>

namespace gpupm {

// What sc_time_stamp() returns, from the context `block` was made in.
inline const sc_core::sc_time& time_now(const sc_core::sc_object& block) { return block.simcontext()->time_stamp(); }

}  // namespace gpupm
