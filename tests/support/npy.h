// A small reader for NumPy .npy files (format 1.0/2.0, little-endian, C order):
// what gpupm's --dump-inputs / --dump-buffers write.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupm::test {

struct NpyArray {
  std::string dtype;           // "|u1", "<i4", "<u4", "<i8", "<u8", "<f4", "<f8"
  std::vector<uint64_t> shape;
  std::vector<uint8_t> bytes;  // the elements, C order
  uint64_t count() const;

  // The elements as T; throws unless T matches the dtype.
  template <class T>
  std::vector<T> as() const;
};

// Throws std::runtime_error naming the file for anything unreadable or unsupported.
NpyArray read_npy(const std::string& path);

template <class T>
const char* npy_dtype_of();
template <> inline const char* npy_dtype_of<uint8_t>() { return "|u1"; }
template <> inline const char* npy_dtype_of<int32_t>() { return "<i4"; }
template <> inline const char* npy_dtype_of<uint32_t>() { return "<u4"; }
template <> inline const char* npy_dtype_of<int64_t>() { return "<i8"; }
template <> inline const char* npy_dtype_of<uint64_t>() { return "<u8"; }
template <> inline const char* npy_dtype_of<float>() { return "<f4"; }
template <> inline const char* npy_dtype_of<double>() { return "<f8"; }

template <class T>
std::vector<T> NpyArray::as() const {
  if (dtype != npy_dtype_of<T>())
    throw std::runtime_error("npy: elements are " + dtype + ", asked for " + npy_dtype_of<T>());
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

}  // namespace gpupm::test
