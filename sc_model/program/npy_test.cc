// The .npy reader: every size read from a header is checked (no stoull escape,
// no wrapped product, no negative count shown as 2^64 - 4).
#include "gpupm/program/npy.h"

#include <gtest/gtest.h>

#include "gpupm/common/json_reader.h"

namespace gpupm {
namespace {

// A .npy 1.0 file: header dictionary `dict`, then `data_bytes` zero bytes.
std::string npy(const std::string& dict, size_t data_bytes) {
  std::string header = dict;
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + char(header.size() & 0xff) + char(header.size() >> 8) + header +
         std::string(data_bytes, '\0');
}

std::string with_shape(const std::string& shape, const std::string& descr = "<f4") {
  return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
}

// The InputError text parse_npy throws ("" when it accepts the bytes).
std::string refusal(const std::string& bytes) {
  try {
    parse_npy(bytes, "a.npy");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Npy, ReadsWhatItWrites) {
  const NpyArray a = parse_npy(npy(with_shape("(3,)"), 12), "a.npy");
  EXPECT_EQ(a.dtype, "<f4");
  EXPECT_EQ(a.count, 3u);
  EXPECT_EQ(a.bytes.size(), 12u);
  EXPECT_EQ(parse_npy(npy(with_shape("(2, 3)"), 24), "a.npy").count, 6u);
  EXPECT_EQ(parse_npy(npy(with_shape("()"), 4), "a.npy").count, 1u);              // a scalar
  EXPECT_EQ(parse_npy(npy(with_shape("(4,)", "<u1"), 4), "a.npy").dtype, "|u1");  // one byte: no order
}

TEST(Npy, ShapeThatIsNotANumberIsRefusedNamingIt) {
  EXPECT_NE(refusal(npy(with_shape("(abc,)"), 0))
                .find("a.npy: shape (abc,): expected non-negative decimal integers, "
                      "got 'abc'"),
            std::string::npos);
  EXPECT_NE(refusal(npy(with_shape("4096"), 0)).find("not a valid .npy header"), std::string::npos);
}

TEST(Npy, NegativeExtentIsRefusedAsWritten) {
  const std::string why = refusal(npy(with_shape("(-1,)"), 0));
  EXPECT_NE(why.find("got '-1'"), std::string::npos) << why;
  EXPECT_EQ(why.find("18446744073709551"), std::string::npos) << why;
}

TEST(Npy, ElementCountBeyondTwoToThe63IsRefusedNotWrapped) {
  // 9223372036854775810 x 2 wraps to 4 in 64 bits: 16 bytes of f32 data would have matched.
  EXPECT_NE(refusal(npy(with_shape("(9223372036854775810, 2)"), 16)).find("more than 2^63 - 1"), std::string::npos);
  EXPECT_NE(refusal(npy(with_shape("(4294967296, 4294967296)"), 0)).find("more than 2^63 - 1 elements"),
            std::string::npos);
  EXPECT_NE(refusal(npy(with_shape("(99999999999999999999999,)"), 0)).find("is more than 2^63 - 1"), std::string::npos);
  // The count fits, its size in bytes does not.
  EXPECT_NE(refusal(npy(with_shape("(4611686018427387904,)"), 0)).find("more than 2^63 - 1 bytes"), std::string::npos);
}

TEST(Npy, HeaderSyntaxAndKeysAreChecked) {
  EXPECT_NE(refusal(npy("{'descr': '<f4', 'shape': (1,), }", 4)).find("no 'fortran_order' key"), std::string::npos);
  EXPECT_NE(refusal(npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 4))
                .find("the key 'descr' appears twice"),
            std::string::npos);
  EXPECT_NE(refusal(npy("[1, 2]", 0)).find("not a valid .npy header"), std::string::npos);
  EXPECT_NE(refusal(npy(with_shape("(1,)") + " trailing", 4)).find("text after the dictionary"), std::string::npos);
  EXPECT_NE(refusal(npy(with_shape("(1,)", "<c8"), 8)).find("unsupported dtype '<c8'"), std::string::npos);
  EXPECT_NE(refusal(npy(with_shape("(1,)", ">f4"), 4)).find("big-endian"), std::string::npos);
  EXPECT_NE(refusal(npy("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", 4)).find("Fortran-order"),
            std::string::npos);
}

TEST(Npy, DataSizeMustMatchTheHeader) {
  EXPECT_NE(refusal(npy(with_shape("(8,)"), 16)).find("data holds 16 bytes, the header says 8 elements of 4 bytes"),
            std::string::npos);
  EXPECT_NE(refusal(std::string("\x93NUMPY\x01\x00\x7f\x00{'descr'", 17)).find("truncated .npy header"),
            std::string::npos);
  EXPECT_NE(refusal("not numpy").find("magic string missing"), std::string::npos);
  std::string v2 = npy(with_shape("(1,)"), 4);
  v2[6] = 2;
  EXPECT_NE(refusal(v2).find("version 2 is not supported"), std::string::npos);
}

}  // namespace
}  // namespace gpupm
