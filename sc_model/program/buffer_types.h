// The element types a program workload's buffers may have (docs/real_kernels.md,
// "The workload contract") and how a JSON number becomes the bytes of one element or parameter.
#pragma once

#include "gpupm/common/json_fwd.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpupm {

struct BufferType {
  const char* name;   // u8, s32, u32, s64, u64, f32, f64
  const char* dtype;  // its NumPy dtype (.npy files)
  uint32_t bytes;
  bool is_float, is_signed;
};

// The type named `name` (one of buffer_type_names(); else u8, which the reader has refused).
const BufferType& buffer_type(const std::string& name);
const std::vector<std::string>& buffer_type_names();

// A JSON number as the little-endian bytes of a scalar of `bytes` width,
// integer or float; `fail` is called with what is wrong when it does not fit.
// `typed_sign`: the type's signedness is meant (buffer types); PTX parameter
// types are not (clang declares every int parameter .u32, so a negative
// argument to an "unsigned" parameter is legal C).
void encode_number(const Json& v, bool is_float, bool is_signed, uint32_t bytes, uint8_t* out,
                   const std::function<void(const std::string&)>& fail, bool typed_sign = true);

// A float of `bytes` width (4 or 8) as its little-endian bytes; `fail` when
// it is not finite or, as f32, out of range.
void encode_float(double d, uint32_t bytes, uint8_t* out, const std::function<void(const std::string&)>& fail);

// What is wrong with `v` as an element of `type` ("" when it fits).
std::string element_problem(const Json& v, const BufferType& type);

}  // namespace gpupm
