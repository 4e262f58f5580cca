// Typed, validating access to a JSON document. Every error names the file,
// the JSON path and what is allowed, and is thrown as InputError (exit 2).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpupm {

using Json = nlohmann::json;

struct InputError : std::runtime_error {
  InputError(const std::string& file, const std::string& path, const std::string& what)
      : std::runtime_error(file + (path.empty() ? "" : ": " + path) + ": " + what) {}
};

// The deepest nesting of arrays/objects a document may have.
constexpr size_t kMaxJsonDepth = 256;

// Reads and parses a JSON file (a regular file: FIFOs, devices and directories
// are refused); malformed JSON reports line and column, numbers beyond a
// double and nesting beyond kMaxJsonDepth are errors too.
Json load_json_file(const std::string& file);
Json parse_json_text(const std::string& text, const std::string& file);

// A view of one JSON object. Reading a key marks it used; finish() rejects the
// keys nobody read, so a typo in a config is an error rather than a silent default.
class JsonReader {
 public:
  JsonReader(const Json& j, std::string file, std::string path);
  JsonReader(const JsonReader&) = delete;
  ~JsonReader() = default;

  bool has(const std::string& key) const;
  const Json& raw(const std::string& key);

  uint64_t get_uint(const std::string& key, uint64_t lo, uint64_t hi);
  uint64_t get_uint(const std::string& key, uint64_t lo, uint64_t hi, uint64_t dflt);
  double get_double(const std::string& key, double lo, double hi);
  double get_double(const std::string& key, double lo, double hi, double dflt);
  bool get_bool(const std::string& key, bool dflt);
  std::string get_string(const std::string& key);
  std::string get_string(const std::string& key, const std::string& dflt);
  std::string get_enum(const std::string& key, const std::vector<std::string>& allowed, const std::string& dflt);

  JsonReader object(const std::string& key);  // required object
  // Array of objects; calls f(reader, index) for each element.
  template <class F>
  void for_each(const std::string& key, size_t min_count, size_t max_count, F f);
  size_t array_size(const std::string& key, size_t min_count, size_t max_count);

  // Throws for keys present but never read.
  void finish();

  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }  // this object's JSON path ("" at the top)
  std::string path_of(const std::string& key) const;
  // The keys nobody has read yet, as an object (for a reader that hands them on),
  // and marking every key read (another reader has checked them).
  Json unread() const;
  void mark_read();

 private:
  const Json& need(const std::string& key);
  const Json& j_;
  std::string file_;
  std::string path_;
  std::set<std::string> used_;
  mutable std::set<std::string> known_;  // every key asked about: what is allowed here
};

template <class F>
void JsonReader::for_each(const std::string& key, size_t min_count, size_t max_count, F f) {
  size_t n = array_size(key, min_count, max_count);
  const Json& a = j_.at(key);
  for (size_t i = 0; i < n; ++i) {
    std::string p = path_of(key) + "[" + std::to_string(i) + "]";
    if (!a[i].is_object()) throw InputError(file_, p, "expected an object");
    JsonReader r(a[i], file_, p);
    f(r, i);
    r.finish();
  }
}

// Throws InputError(file) unless it names an existing regular file (checked
// with stat before opening: a FIFO nobody writes would block forever).
void require_regular_file(const std::string& file);
// What keeps `file` from being read as a regular file ("" when nothing): the
// reason stat gives (no such file, name too long), or what it is instead.
std::string regular_file_problem(const std::string& file);
// A regular file's whole text; InputError naming it and the reason otherwise.
std::string read_input_file(const std::string& file);
bool is_valid_utf8(const std::string& s);

// Applies "path=value" to a document: dotted path, [i] for array elements.
// The value is parsed as JSON when it can be, else taken as a string.
void apply_override(Json& doc, const std::string& assignment, const std::string& origin);

}  // namespace gpupm
