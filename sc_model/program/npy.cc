#include "gpupm/program/npy.h"

#include "gpupm/common/json_reader.h"
#include "gpupm/common/output_files.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>

namespace gpupm {

namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kPreamble = 10;  // magic (6), version (2), header length (2)
const char* const kDtypes = "|u1, <i4, <u4, <i8, <u8, <f4, <f8";

// One value of the header's Python dictionary: a string, True/False or a tuple.
struct DictValue {
  enum class Kind { Text, Bool, Tuple } kind = Kind::Text;
  std::string text;                // Text; Bool: "True"/"False"
  std::vector<std::string> items;  // Tuple: the elements as written
};

// The header is a Python dictionary literal ("{'descr': '<f4', 'fortran_order':
// False, 'shape': (8,), }"); this reads exactly that grammar and nothing else.
class HeaderDict {
 public:
  HeaderDict(const std::string& text, const std::string& file) : s_(text), file_(file) {}

  std::map<std::string, DictValue> read() {
    std::map<std::string, DictValue> out;
    expect('{');
    while (!accept('}')) {
      const std::string key = quoted();
      expect(':');
      if (out.count(key)) fail("the key '" + key + "' appears twice");
      out[key] = value();
      if (!accept(',')) {
        expect('}');
        break;
      }
    }
    skip_space();
    if (pos_ != s_.size()) fail("text after the dictionary");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file_, "",
                     "not a valid .npy header: " + what +
                         " (expected {'descr': ..., 'fortran_order': "
                         "False, 'shape': (N,)})");
  }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t')) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "' at offset " + std::to_string(pos_));
  }
  std::string quoted() {
    skip_space();
    const char q = pos_ < s_.size() ? s_[pos_] : 0;
    if (q != '\'' && q != '"') fail("expected a quoted key or string at offset " + std::to_string(pos_));
    const size_t end = s_.find(q, pos_ + 1);
    if (end == std::string::npos) fail("unterminated string");
    std::string text = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return text;
  }
  std::string word() {
    skip_space();
    const size_t start = pos_;
    while (pos_ < s_.size() && std::string(" \n\t,():{}'\"").find(s_[pos_]) == std::string::npos) ++pos_;
    if (pos_ == start) fail("expected a value at offset " + std::to_string(pos_));
    return s_.substr(start, pos_ - start);
  }
  DictValue value() {
    skip_space();
    DictValue v;
    if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"')) {
      v.text = quoted();
    } else if (accept('(')) {
      v.kind = DictValue::Kind::Tuple;
      while (!accept(')')) {
        v.items.push_back(word());
        if (!accept(',')) {
          expect(')');
          break;
        }
      }
    } else {
      v.kind = DictValue::Kind::Bool;
      v.text = word();
      if (v.text != "True" && v.text != "False") fail("unexpected value '" + v.text + "'");
    }
    return v;
  }

  const std::string& s_;
  const std::string& file_;
  size_t pos_ = 0;
};

const DictValue& field(const std::map<std::string, DictValue>& dict, const char* key, DictValue::Kind kind,
                       const std::string& file) {
  auto it = dict.find(key);
  if (it == dict.end()) throw InputError(file, "", std::string("not a valid .npy header: no '") + key + "' key");
  if (it->second.kind != kind)
    throw InputError(file, "", std::string("not a valid .npy header: '") + key + "' has the wrong kind of value");
  return it->second;
}

// The dtype as the buffers name it, and its element size (0: not one we read).
uint32_t dtype_bytes(std::string& descr, const std::string& file) {
  if (descr.size() == 3 && descr[2] == '1' && std::string("<=|").find(descr[0]) != std::string::npos)
    descr[0] = '|';                                            // one byte: no byte order
  else if (!descr.empty() && descr[0] == '=') descr[0] = '<';  // native order: this host is little-endian
  if (descr.size() == 3 && descr[0] == '>' && descr[2] != '1')
    throw InputError(file, "",
                     "big-endian dtype " + descr + " is not supported (expected little-endian: " + kDtypes + ")");
  static const std::map<std::string, uint32_t> kKnown = {{"|u1", 1}, {"<i4", 4}, {"<u4", 4}, {"<i8", 8},
                                                         {"<u8", 8}, {"<f4", 4}, {"<f8", 8}};
  auto it = kKnown.find(descr);
  if (it == kKnown.end())
    throw InputError(file, "", "unsupported dtype '" + descr + "' (expected one of " + kDtypes + ")");
  return it->second;
}

// The element count: the product of the extents, each a decimal integer >= 0,
// the product and its size in bytes at most 2^63 - 1.
uint64_t shape_count(const std::vector<std::string>& dims, uint32_t elem_bytes, const std::string& file) {
  std::string shape = "(";
  for (size_t i = 0; i < dims.size(); ++i) shape += (i ? ", " : "") + dims[i];
  shape += dims.size() == 1 ? ",)" : ")";
  auto refuse = [&](const std::string& what) { throw InputError(file, "", "shape " + shape + ": " + what); };
  constexpr uint64_t kMax = (uint64_t(1) << 63) - 1;
  uint64_t count = 1;
  for (const std::string& d : dims) {
    if (d.empty() || d.find_first_not_of("0123456789") != std::string::npos)
      refuse("expected non-negative decimal integers, got '" + d + "'");
    if (d.size() > 19) refuse("extent " + d + " is more than 2^63 - 1");
    const uint64_t extent = std::stoull(d);  // at most 19 digits: fits
    if (__builtin_mul_overflow(count, extent, &count) || count > kMax) refuse("more than 2^63 - 1 elements");
  }
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(count, uint64_t(elem_bytes), &bytes) || bytes > kMax)
    refuse("more than 2^63 - 1 bytes of data");
  return count;
}

std::ifstream open_npy(const std::string& file, uint64_t* size) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError(file, "", std::filesystem::exists(file, ec) ? "not a regular file" : "no such file");
  std::ifstream f(file, std::ios::binary | std::ios::ate);
  if (!f) throw InputError(file, "", std::string("cannot read the file: ") + std::strerror(errno));
  *size = uint64_t(f.tellg());
  f.seekg(0);
  return f;
}

}  // namespace

NpyHeader parse_npy_header(const std::string& bytes, uint64_t file_bytes, const std::string& file) {
  if (bytes.size() < kPreamble || bytes.compare(0, 6, kMagic, 6) != 0)
    throw InputError(file, "", "not a NumPy .npy file (magic string missing)");
  if (bytes[6] != 1)
    throw InputError(
        file, "", "NumPy .npy version " + std::to_string(int(uint8_t(bytes[6]))) + " is not supported (expected 1.0)");
  const size_t header_len = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
  if (kPreamble + header_len > bytes.size()) throw InputError(file, "", "truncated .npy header");
  const std::map<std::string, DictValue> dict = HeaderDict(bytes.substr(kPreamble, header_len), file).read();
  NpyHeader h;
  h.dtype = field(dict, "descr", DictValue::Kind::Text, file).text;
  h.elem_bytes = dtype_bytes(h.dtype, file);
  if (field(dict, "fortran_order", DictValue::Kind::Bool, file).text != "False")
    throw InputError(file, "", "Fortran-order arrays are not supported (expected C order)");
  h.count = shape_count(field(dict, "shape", DictValue::Kind::Tuple, file).items, h.elem_bytes, file);
  h.data_offset = kPreamble + header_len;
  if (file_bytes - h.data_offset != h.data_bytes())
    throw InputError(file, "",
                     "data holds " + std::to_string(file_bytes - h.data_offset) + " bytes, the header says " +
                         std::to_string(h.count) + " elements of " + std::to_string(h.elem_bytes) + " bytes");
  return h;
}

NpyArray parse_npy(const std::string& bytes, const std::string& file) {
  const NpyHeader h = parse_npy_header(bytes, bytes.size(), file);
  NpyArray a;
  a.dtype = h.dtype;
  a.count = h.count;
  a.bytes.assign(bytes.begin() + long(h.data_offset), bytes.end());
  return a;
}

NpyHeader read_npy_header(const std::string& file) {
  uint64_t size = 0;
  std::ifstream f = open_npy(file, &size);
  std::string head(kPreamble, '\0');
  f.read(head.data(), long(kPreamble));
  head.resize(size_t(f.gcount()));
  if (head.size() == kPreamble) {  // the header length is known: read the header too
    head.resize(kPreamble + (uint8_t(head[8]) | size_t(uint8_t(head[9])) << 8));
    f.read(head.data() + kPreamble, long(head.size() - kPreamble));
    head.resize(kPreamble + size_t(f.gcount()));
  }
  return parse_npy_header(head, size, file);
}

NpyArray read_npy(const std::string& file) {
  const NpyHeader h = read_npy_header(file);
  uint64_t size = 0;
  std::ifstream f = open_npy(file, &size);
  NpyArray a;
  a.dtype = h.dtype;
  a.count = h.count;
  a.bytes.resize(h.data_bytes());
  f.seekg(long(h.data_offset));
  f.read(reinterpret_cast<char*>(a.bytes.data()), long(a.bytes.size()));
  if (uint64_t(f.gcount()) != a.bytes.size()) throw InputError(file, "", "the file changed while it was read");
  return a;
}

void write_npy(const std::string& file, const NpyArray& a) {
  std::string header =
      "{'descr': '" + a.dtype + "', 'fortran_order': False, 'shape': (" + std::to_string(a.count) + ",), }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded to 64 bytes.
  const size_t unpadded = kPreamble + header.size() + 1;
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
