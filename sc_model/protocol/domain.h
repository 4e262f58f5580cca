// The two V/F domains. The SM domain clocks the SMs; the memory domain's clock
// is the DRAM command clock (the V/F tables: freq/dvfs_config.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpupm {

enum class Domain : uint8_t { Sm = 0, Mem = 1 };
constexpr size_t kDomains = 2;
inline const char* domain_name(Domain d) { return d == Domain::Sm ? "sm" : "mem"; }

}  // namespace gpupm
