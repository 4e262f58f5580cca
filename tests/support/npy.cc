#include "support/npy.h"

#include <fstream>
#include <iterator>
#include <regex>

namespace gpupm::test {

uint64_t NpyArray::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

NpyArray read_npy(const std::string& path) {
  auto fail = [&](const std::string& what) -> std::runtime_error { return std::runtime_error(path + ": " + what); };
  std::ifstream f(path, std::ios::binary);
  if (!f) throw fail("cannot open");
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (file.size() < 10 || std::memcmp(file.data(), "\x93NUMPY", 6) != 0) throw fail("not a .npy file");
  uint8_t major = file[6];
  size_t header_len, header_start;
  if (major == 1) {
    header_len = file[8] | (size_t(file[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12) throw fail("truncated header");
    header_len = file[8] | (size_t(file[9]) << 8) | (size_t(file[10]) << 16) | (size_t(file[11]) << 24);
    header_start = 12;
  } else {
    throw fail("unsupported .npy version " + std::to_string(major));
  }
  if (file.size() < header_start + header_len) throw fail("truncated header");
  std::string header(file.begin() + long(header_start), file.begin() + long(header_start + header_len));

  NpyArray a;
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']+)')"))) throw fail("no descr in header");
  a.dtype = m[1];
  static const std::vector<std::pair<std::string, size_t>> kTypes = {
      {"|u1", 1}, {"<i4", 4}, {"<u4", 4}, {"<i8", 8}, {"<u8", 8}, {"<f4", 4}, {"<f8", 8}};
  size_t item = 0;
  for (const auto& t : kTypes)
    if (t.first == a.dtype) item = t.second;
  if (a.dtype == "u1" || a.dtype == "<u1") a.dtype = "|u1", item = 1;
  if (item == 0) throw fail("unsupported dtype " + a.dtype);
  if (std::regex_search(header, m, std::regex(R"('fortran_order'\s*:\s*True)"))) throw fail("Fortran order");
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) throw fail("no shape in header");
  std::string dims = m[1];
  static const std::regex number(R"(\d+)");
  for (std::sregex_iterator it(dims.begin(), dims.end(), number), end; it != end; ++it)
    a.shape.push_back(std::stoull(it->str()));
  size_t payload = size_t(a.count()) * item;
  size_t data_start = header_start + header_len;
  if (file.size() - data_start != payload)
    throw fail("expected " + std::to_string(payload) + " bytes of data, found " + std::to_string(file.size() - data_start));
  a.bytes.assign(file.begin() + long(data_start), file.end());
  return a;
}

}  // namespace gpupm::test
