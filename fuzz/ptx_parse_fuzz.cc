// libFuzzer target: PTX text through gpupm::ptx::parse (lexer, parser,
// decoder, CFG, register estimate). Only ParseError is an accepted answer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpupm/ptx/ptx.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    gpupm::ptx::parse(std::string(reinterpret_cast<const char*>(data), size), "fuzz.ptx");
  } catch (const gpupm::ptx::ParseError&) {}
  return 0;
}
