// NumPy .npy files (format 1.0, little-endian, C order, one dimension): the
// program workloads' `{"file": ...}` initialiser and `--dump-buffers` output.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupm {

template <class T>
const char* npy_dtype_of();
template <> inline const char* npy_dtype_of<uint8_t>() { return "|u1"; }
template <> inline const char* npy_dtype_of<int32_t>() { return "<i4"; }
template <> inline const char* npy_dtype_of<uint32_t>() { return "<u4"; }
template <> inline const char* npy_dtype_of<int64_t>() { return "<i8"; }
template <> inline const char* npy_dtype_of<uint64_t>() { return "<u8"; }
template <> inline const char* npy_dtype_of<float>() { return "<f4"; }
template <> inline const char* npy_dtype_of<double>() { return "<f8"; }

struct NpyArray {
  std::string dtype;  // NumPy descr: "|u1", "<i4", "<u4", "<i8", "<u8", "<f4", "<f8"
  uint64_t count = 0;
  std::vector<uint8_t> bytes;

  // The elements as T; throws unless T matches the dtype.
  template <class T>
  std::vector<T> as() const {
    if (dtype != npy_dtype_of<T>())
      throw std::runtime_error("npy: elements are " + dtype + ", asked for " + npy_dtype_of<T>());
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
};

// Throws InputError naming the file and what is wrong (version, byte order,
// Fortran order, shape, size).
NpyArray read_npy(const std::string& file);
// Writes atomically (temporary file, then rename); throws std::runtime_error
// with the reason when the file cannot be written.
void write_npy(const std::string& file, const NpyArray& a);

}  // namespace gpupm
