// encode_float, shared by a float fill and a float iota: the bytes of the type, and its range checked.
#include "gpupm/program/buffer_types.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace {

const auto kThrow = [](const std::string& what) { throw std::runtime_error(what); };

std::string failure_of(double d, uint32_t bytes) {
  uint8_t out[8];
  try {
    gpupm::encode_float(d, bytes, out, kThrow);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(BufferTypes, EncodeFloatWritesTheTypesBytes) {
  uint8_t out[8] = {};
  gpupm::encode_float(0.1, 4, out, kThrow);
  const float f = 0.1f;
  EXPECT_EQ(std::memcmp(out, &f, 4), 0);
  gpupm::encode_float(0.1, 8, out, kThrow);
  const double d = 0.1;
  EXPECT_EQ(std::memcmp(out, &d, 8), 0);
}

TEST(BufferTypes, EncodeFloatRefusesWhatTheTypeCannotHold) {
  EXPECT_NE(failure_of(1e39, 4).find("f32's range"), std::string::npos);
  EXPECT_EQ(failure_of(1e39, 8), "");
  EXPECT_NE(failure_of(std::numeric_limits<double>::infinity(), 8).find("finite"), std::string::npos);
  EXPECT_NE(failure_of(std::numeric_limits<double>::quiet_NaN(), 4).find("finite"), std::string::npos);
  EXPECT_NE(failure_of(1.0, 2).find("4 or 8 bytes"), std::string::npos);  // never 8 bytes into a 2-byte slot
}

TEST(BufferTypes, AJsonFloatEncodesAsEncodeFloatDoes) {  // fill and iota write the same bytes for one value
  for (const uint32_t bytes : {4u, 8u}) {
    uint8_t from_json[8] = {}, direct[8] = {};
    gpupm::encode_number(gpupm::Json(-2.75e-3), true, true, bytes, from_json, kThrow);
    gpupm::encode_float(-2.75e-3, bytes, direct, kThrow);
    EXPECT_EQ(std::memcmp(from_json, direct, 8), 0) << bytes << " bytes";
  }
}
