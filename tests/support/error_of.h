// For reader tests: the message of the InputError a call throws.
#pragma once

#include "gpupm/common/json_reader.h"

#include <string>

namespace gpupm::test {

// The InputError message f() throws, or "" when it throws none.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace gpupm::test
