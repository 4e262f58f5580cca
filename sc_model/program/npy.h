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
// clang-format off
template <> inline const char* npy_dtype_of<uint8_t>() { return "|u1"; }
template <> inline const char* npy_dtype_of<int32_t>() { return "<i4"; }
template <> inline const char* npy_dtype_of<uint32_t>() { return "<u4"; }
template <> inline const char* npy_dtype_of<int64_t>() { return "<i8"; }
template <> inline const char* npy_dtype_of<uint64_t>() { return "<u8"; }
template <> inline const char* npy_dtype_of<float>() { return "<f4"; }
template <> inline const char* npy_dtype_of<double>() { return "<f8"; }
// clang-format on

// What a .npy header says: the element type, how many elements, where they start.
struct NpyHeader {
  std::string dtype;                                          // NumPy descr, one-byte types as "|u1"
  uint64_t count = 0;                                         // the product of the shape's extents
  uint32_t elem_bytes = 0;                                    // from the dtype
  uint64_t data_offset = 0;                                   // magic, version, length and header
  uint64_t data_bytes() const { return count * elem_bytes; }  // no overflow: checked when read
};

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

// The header at the start of `bytes` (at least the whole header), the file's
// size `file_bytes` checked against it. Throws InputError naming `file` and
// what is wrong (magic, version, dictionary syntax, dtype, byte order, Fortran
// order, shape, an element count or size beyond 2^63, the size on disk).
NpyHeader parse_npy_header(const std::string& bytes, uint64_t file_bytes, const std::string& file);
// A whole .npy file's bytes (fuzzing and tests), checked as read_npy checks a file.
NpyArray parse_npy(const std::string& bytes, const std::string& file);
// Only the header (and the file's size): what the workload reader checks before the run.
NpyHeader read_npy_header(const std::string& file);
// Header and data; the data is read only once the header and the file's size agree.
NpyArray read_npy(const std::string& file);
// Writes atomically (common/output_files.h); throws std::runtime_error with the
// final file and the reason when it cannot be written.
void write_npy(const std::string& file, const NpyArray& a);

}  // namespace gpupm
