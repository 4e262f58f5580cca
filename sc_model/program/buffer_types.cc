#include "gpupm/program/buffer_types.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

namespace gpupm {

namespace {

constexpr BufferType kTypes[] = {{"u8", "|u1", 1, false, false},  {"s32", "<i4", 4, false, true},
                                 {"u32", "<u4", 4, false, false}, {"s64", "<i8", 8, false, true},
                                 {"u64", "<u8", 8, false, false}, {"f32", "<f4", 4, true, true},
                                 {"f64", "<f8", 8, true, true}};

std::vector<std::string> type_names() {
  std::vector<std::string> v;
  for (const BufferType& t : kTypes) v.push_back(t.name);
  return v;
}

}  // namespace

const BufferType& buffer_type(const std::string& name) {
  for (const BufferType& t : kTypes)
    if (name == t.name) return t;
  return kTypes[0];
}

const std::vector<std::string>& buffer_type_names() {
  static const std::vector<std::string> names = type_names();
  return names;
}

void encode_float(double d, uint32_t bytes, uint8_t* out, const std::function<void(const std::string&)>& fail) {
  if (bytes != 4 && bytes != 8) fail("expected a float of 4 or 8 bytes, not " + std::to_string(bytes));
  if (!std::isfinite(d)) fail("expected a finite number");
  if (bytes == 4) {
    const float f = float(d);
    if (!std::isfinite(f))  // JSON numbers are finite: beyond f32's range it would become infinity
      fail("expected a number in f32's range [-3.4028235e38, 3.4028235e38]");
    std::memcpy(out, &f, 4);
  } else {
    std::memcpy(out, &d, 8);
  }
}

void encode_number(const Json& v, bool is_float, bool is_signed, uint32_t bytes, uint8_t* out,
                   const std::function<void(const std::string&)>& fail, bool typed_sign) {
  if (!v.is_number()) fail("expected a number");
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)  // callers refuse aggregates first
    fail("expected a scalar of 1, 2, 4 or 8 bytes, not " + std::to_string(bytes));
  if (is_float) return encode_float(v.get<double>(), bytes, out, fail);
  if (v.is_number_float()) fail("expected an integer");
  const unsigned bits = bytes * 8;
  const bool wide = bits == 64;
  const int64_t smin = wide ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
  const uint64_t umax = typed_sign && is_signed ? uint64_t(-(smin + 1))
                        : wide                  ? ~uint64_t(0)
                                                : (uint64_t(1) << bits) - 1;
  const std::string range =
      "[" + (typed_sign && !is_signed ? std::string("0") : std::to_string(smin)) + ", " + std::to_string(umax) + "]";
  uint64_t raw;
  if (v.is_number_unsigned()) {
    raw = v.get<uint64_t>();
    if (raw > umax) fail("expected an integer in " + range);
  } else {
    const int64_t s = v.get<int64_t>();
    if (s < smin || (typed_sign && !is_signed && s < 0)) fail("expected an integer in " + range);
    raw = uint64_t(s);
  }
  std::memcpy(out, &raw, bytes);  // little-endian host
}

std::string element_problem(const Json& v, const BufferType& type) {
  struct Misfit {
    std::string what;
  };
  uint8_t scratch[8];
  try {
    encode_number(v, type.is_float, type.is_signed, type.bytes, scratch,
                  [](const std::string& what) { throw Misfit{what}; });
  } catch (const Misfit& m) {
    return m.what + " (buffer type " + std::string(type.name) + ")";
  }
  return "";
}

}  // namespace gpupm
