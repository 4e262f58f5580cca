#include "program/npy.h"

#include "common/json_reader.h"
#include "common/output_files.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace gpupm {

namespace {

const char kMagic[] = "\x93NUMPY";

// The value of `key` in the header dictionary ("'descr': '<f4', ..."), raw.
std::string header_field(const std::string& header, const std::string& key, const std::string& file) {
  const std::string k = "'" + key + "'";
  size_t at = header.find(k);
  if (at == std::string::npos) throw InputError(file, "", "not a NumPy .npy file: header has no " + k);
  at = header.find(':', at + k.size());
  size_t end = header.find_first_of(",}", at);
  if (key == "shape") end = header.find(')', at) + 1;
  std::string v = header.substr(at + 1, end - at - 1);
  v.erase(0, v.find_first_not_of(" "));
  v.erase(v.find_last_not_of(" ") + 1);
  return v;
}

}  // namespace

NpyArray read_npy(const std::string& file) {
  std::ifstream f(file, std::ios::binary);
  if (!f) throw InputError(file, "", "cannot read the file");
  std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (all.size() < 10 || all.compare(0, 6, kMagic, 6) != 0)
    throw InputError(file, "", "not a NumPy .npy file (magic string missing)");
  if (all[6] != 1) throw InputError(file, "", "NumPy .npy version " + std::to_string(int(all[6])) + " is not supported (expected 1.0)");
  const size_t header_len = uint8_t(all[8]) | size_t(uint8_t(all[9])) << 8;
  if (10 + header_len > all.size()) throw InputError(file, "", "truncated .npy header");
  const std::string header = all.substr(10, header_len);
  NpyArray a;
  std::string descr = header_field(header, "descr", file);
  if (descr.size() < 3) throw InputError(file, "", "bad dtype " + descr);
  a.dtype = descr.substr(1, descr.size() - 2);
  if (a.dtype.size() == 3 && a.dtype[0] == '>' && a.dtype[2] != '1')
    throw InputError(file, "", "big-endian dtype " + a.dtype + " is not supported (expected little-endian)");
  if (header_field(header, "fortran_order", file) != "False")
    throw InputError(file, "", "Fortran-order arrays are not supported (expected C order)");
  // Shape: (n,) or (a, b, ...): the element count is the product.
  std::string shape = header_field(header, "shape", file);
  a.count = 1;
  size_t pos = 1;
  while (pos < shape.size()) {
    size_t next = shape.find_first_of(",)", pos);
    std::string dim = shape.substr(pos, next - pos);
    dim.erase(0, dim.find_first_not_of(" "));
    if (!dim.empty()) a.count *= std::stoull(dim);
    pos = next + 1;
  }
  const size_t elem = a.dtype.size() < 3 ? 0 : size_t(std::atoi(a.dtype.c_str() + 2));  // "<f4": 4 bytes
  if (elem == 0) throw InputError(file, "", "unsupported dtype " + a.dtype);
  const size_t data_at = 10 + header_len;
  if (all.size() - data_at != a.count * elem)
    throw InputError(file, "", "data holds " + std::to_string(all.size() - data_at) + " bytes, the header says " +
                                   std::to_string(a.count * elem));
  a.bytes.assign(all.begin() + long(data_at), all.end());
  return a;
}

void write_npy(const std::string& file, const NpyArray& a) {
  std::string header = "{'descr': '" + a.dtype + "', 'fortran_order': False, 'shape': (" + std::to_string(a.count) +
                       ",), }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded to 64 bytes.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  std::string out(kMagic, 6);
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(char(header.size() & 0xff));
  out.push_back(char(header.size() >> 8));
  out += header;
  out.append(reinterpret_cast<const char*>(a.bytes.data()), a.bytes.size());
  const std::filesystem::path p(file);
  write_outputs(p.has_parent_path() ? p.parent_path().string() : ".", {{p.filename().string(), out}});
}

}  // namespace gpupm
