// FNV-1a, 64 bit: the stable content hash behind run fingerprints and sweep ids
// (same text, same id, on every machine and build).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace gpupm {

inline uint64_t fnv1a(const std::string& text, uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

inline std::string hex64(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace gpupm
