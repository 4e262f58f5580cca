// NumPy .npy files (format 1.0, little-endian, C order, one dimension): the
// program workloads' `{"file": ...}` initialiser and `--dump-buffers` output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

struct NpyArray {
  std::string dtype;  // NumPy descr: "|u1", "<i4", "<u4", "<i8", "<u8", "<f4", "<f8"
  uint64_t count = 0;
  std::vector<uint8_t> bytes;
};

// Throws InputError naming the file and what is wrong (version, byte order,
// Fortran order, shape, size).
NpyArray read_npy(const std::string& file);
// Writes atomically (temporary file, then rename); throws std::runtime_error
// with the reason when the file cannot be written.
void write_npy(const std::string& file, const NpyArray& a);

}  // namespace gpupm
