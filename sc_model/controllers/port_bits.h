// Verilated port values of any width as integers, without naming Verilator's
// types (so the port maps, *_ports.h, compile in builds without the RTL): a
// port of up to 64 bits is a native integer, a wider one an array of 32-bit
// words, least significant first (VlWide).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

namespace gpupm::rtl {

// Bits [lsb, lsb + width) of an output port (width <= 64).
template <class Port>
uint64_t port_bits(const Port& port, unsigned lsb, unsigned width) {
  if constexpr (std::is_integral_v<Port>) {
    const uint64_t v = uint64_t(port) >> lsb;
    return width >= 64 ? v : v & ((1ull << width) - 1);
  } else {
    uint64_t v = 0;
    for (unsigned b = 0; b < width; ++b) v |= uint64_t(port[(lsb + b) / 32] >> ((lsb + b) % 32) & 1u) << b;
    return v;
  }
}

// Sets an input port from 32-bit words, least significant first (words beyond
// the port's width are dropped, missing ones are zero).
template <class Port, std::size_t N>
void set_port_words(Port& port, const std::array<uint32_t, N>& w) {
  if constexpr (std::is_integral_v<Port>) {
    uint64_t v = w[0];
    if constexpr (N > 1) v |= uint64_t(w[1]) << 32;
    port = static_cast<Port>(v);
  } else {
    for (std::size_t i = 0; i < std::size(port.m_storage); ++i) port[i] = i < N ? w[i] : 0;
  }
}

}  // namespace gpupm::rtl
