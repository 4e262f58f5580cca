// Shared by the libFuzzer targets in fuzz/: the input as text, the JSON parse
// every reader starts from, and the in-tree paths the readers resolve against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "gpupm/common/json_reader.h"

namespace gpupm::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// The document, or nothing when the text is not JSON (InputError is the
// reader's documented answer to malformed input, so it is not a finding).
inline std::optional<Json> parse_document(const uint8_t* data, size_t size, const std::string& file) {
  try {
    return parse_json_text(text_of(data, size), file);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

// A file name inside the source tree's folder `dir`, so that relative paths a
// fuzzed document names resolve as they would for the shipped files there.
inline std::string in_tree(const std::string& dir, const std::string& name) {
  return std::string(GPUPM_SOURCE_DIR) + "/" + dir + "/" + name;
}

}  // namespace gpupm::fuzz
