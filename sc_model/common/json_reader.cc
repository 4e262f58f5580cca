#include "gpupm/common/json_reader.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace gpupm {

namespace {
std::string type_name(const Json& v) {
  if (v.is_number_unsigned() || v.is_number_integer()) return "an integer";
  if (v.is_number_float()) return "a number";
  return std::string("a ") + v.type_name();
}

const std::string kNumberRange = "numbers must lie within +-1.8e308 (a double)";

// Parses JSON text with at most kMaxJsonDepth nested arrays/objects: deeper
// documents would exhaust the stack in the recursive copies and destructors.
Json parse_bounded(const std::string& text, const std::string& file, const std::string& path) {
  auto depth_guard = [&](int depth, Json::parse_event_t event, Json&) {
    if (depth >= int(kMaxJsonDepth) &&
        (event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start))
      throw InputError(
          file, path, "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels of arrays/objects (the limit)");
    return true;
  };
  try {
    return Json::parse(text, depth_guard, true, /*ignore_comments=*/true);  // configs carry // notes
  } catch (const Json::out_of_range& e) {  // 406: a number overflowing a double (1e400)
    std::string msg = e.what();
    throw InputError(file, path, msg.substr(msg.find(']') + 2) + "; " + kNumberRange);
  }
}
}  // namespace

bool is_valid_utf8(const std::string& s) {
  try {
    (void)Json(s).dump();  // the same check every JSON output makes
    return true;
  } catch (const Json::type_error&) {
    return false;
  }
}

std::string regular_file_problem(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return std::string("cannot open file for reading: ") + std::strerror(errno);
  // A FIFO or device would block or never end; a directory is not a document.
  if (S_ISREG(st.st_mode)) return "";
  const char* what = S_ISDIR(st.st_mode)    ? "is a directory"
                     : S_ISFIFO(st.st_mode) ? "is a FIFO"
                                            : "is not a regular file";
  return std::string(what) + "; expected a regular file";
}

void require_regular_file(const std::string& file) {
  const std::string problem = regular_file_problem(file);
  if (!problem.empty()) throw InputError(file, "", problem);
}

Json parse_json_text(const std::string& text, const std::string& file) {
  try {
    return parse_bounded(text, file, "");
  } catch (const Json::parse_error& e) {
    // e.byte is 1-based offset of the failing character.
    size_t line = 1, col = 1;
    size_t end = e.byte == 0 ? 0 : std::min(e.byte - 1, text.size());
    for (size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string msg = e.what();
    auto pos = msg.find("syntax error");
    if (pos != std::string::npos) msg = msg.substr(pos);
    throw InputError(file, "",
                     "malformed JSON at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + msg);
  }
}

std::string read_input_file(const std::string& file) {
  require_regular_file(file);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "", std::string("cannot open file for reading: ") + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(file, "", std::string("read error: ") + std::strerror(errno));
  return ss.str();
}

Json load_json_file(const std::string& file) { return parse_json_text(read_input_file(file), file); }

JsonReader::JsonReader(const Json& j, std::string file, std::string path)
    : j_(j), file_(std::move(file)), path_(std::move(path)) {
  if (!j_.is_object()) throw InputError(file_, path_.empty() ? "$" : path_, "expected an object");
}

std::string JsonReader::path_of(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

void JsonReader::fail(const std::string& key, const std::string& what) const {
  throw InputError(file_, path_of(key), what);
}

bool JsonReader::has(const std::string& key) const {
  known_.insert(key);
  return j_.contains(key);
}

const Json& JsonReader::need(const std::string& key) {
  known_.insert(key);
  if (!j_.contains(key)) fail(key, "missing (required)");
  used_.insert(key);
  return j_.at(key);
}

const Json& JsonReader::raw(const std::string& key) { return need(key); }

uint64_t JsonReader::get_uint(const std::string& key, uint64_t lo, uint64_t hi) {
  const Json& v = need(key);
  std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (d != std::floor(d)) fail(key, "expected " + range + ", got " + v.dump());
    if (d < double(lo) || d > double(hi)) fail(key, "expected " + range + ", got " + v.dump());
    return uint64_t(d);
  }
  if (!v.is_number_integer()) fail(key, "expected " + range + ", got " + type_name(v));
  if (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0)
    fail(key, "expected " + range + ", got " + v.dump());
  uint64_t x = v.get<uint64_t>();
  if (x < lo || x > hi) fail(key, "expected " + range + ", got " + v.dump());
  return x;
}

uint64_t JsonReader::get_uint(const std::string& key, uint64_t lo, uint64_t hi, uint64_t dflt) {
  if (!has(key)) return dflt;
  return get_uint(key, lo, hi);
}

double JsonReader::get_double(const std::string& key, double lo, double hi) {
  const Json& v = need(key);
  std::ostringstream range;
  range << "a number in [" << lo << ", " << hi << "]";
  if (!v.is_number()) fail(key, "expected " + range.str() + ", got " + type_name(v));
  double x = v.get<double>();
  if (!(x >= lo && x <= hi)) fail(key, "expected " + range.str() + ", got " + v.dump());
  return x;
}

double JsonReader::get_double(const std::string& key, double lo, double hi, double dflt) {
  if (!has(key)) return dflt;
  return get_double(key, lo, hi);
}

bool JsonReader::get_bool(const std::string& key, bool dflt) {
  if (!has(key)) return dflt;
  const Json& v = need(key);
  if (!v.is_boolean()) fail(key, "expected true or false, got " + type_name(v));
  return v.get<bool>();
}

std::string JsonReader::get_string(const std::string& key) {
  const Json& v = need(key);
  if (!v.is_string()) fail(key, "expected a string, got " + type_name(v));
  return v.get<std::string>();
}

std::string JsonReader::get_string(const std::string& key, const std::string& dflt) {
  if (!has(key)) return dflt;
  return get_string(key);
}

std::string JsonReader::get_enum(const std::string& key, const std::vector<std::string>& allowed,
                                 const std::string& dflt) {
  std::string s = has(key) ? get_string(key) : dflt;
  for (const auto& a : allowed)
    if (a == s) return s;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  fail(key, "expected one of {" + list + "}, got \"" + s + "\"");
}

JsonReader JsonReader::object(const std::string& key) {
  const Json& v = need(key);
  if (!v.is_object()) fail(key, "expected an object, got " + type_name(v));
  return JsonReader(v, file_, path_of(key));
}

size_t JsonReader::array_size(const std::string& key, size_t min_count, size_t max_count) {
  const Json& v = need(key);
  if (!v.is_array()) fail(key, "expected an array, got " + type_name(v));
  if (v.size() < min_count || v.size() > max_count)
    fail(key, "expected an array of " + std::to_string(min_count) + " to " + std::to_string(max_count) +
                  " elements, got " + std::to_string(v.size()));
  return v.size();
}

Json JsonReader::unread() const {
  Json rest = Json::object();
  for (auto it = j_.begin(); it != j_.end(); ++it)
    if (!used_.count(it.key())) rest[it.key()] = it.value();
  return rest;
}

void JsonReader::mark_read() {
  for (auto it = j_.begin(); it != j_.end(); ++it) used_.insert(it.key());
}

void JsonReader::finish() {
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    if (!used_.count(it.key())) {
      std::string known;
      for (const auto& k : known_) known += (known.empty() ? "" : ", ") + k;
      fail(it.key(), "unknown key" + (known.empty() ? std::string() : "; allowed here: " + known));
    }
  }
}

void apply_override(Json& doc, const std::string& assignment, const std::string& origin) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError(origin, assignment, "expected path=value");
  std::string path = assignment.substr(0, eq);
  std::string value = assignment.substr(eq + 1);
  // Every document is echoed as JSON (report.json, run ids), which holds UTF-8 only.
  if (!is_valid_utf8(assignment))
    throw InputError(origin, is_valid_utf8(path) ? path : "", "not valid UTF-8; expected UTF-8 text");
  Json v;
  try {
    v = parse_bounded(value, origin, path);
  } catch (const Json::parse_error&) {
    v = value;
  }
  Json work = doc;  // walked on a copy: a path that fails half-way leaves doc untouched
  Json* cur = &work;
  size_t i = 0;
  std::string walked;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      auto close = path.find(']', i);
      if (close == std::string::npos) throw InputError(origin, path, "unclosed '['");
      std::string digits = path.substr(i + 1, close - i - 1);
      if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
        throw InputError(origin, path, "expected an array index (digits) in [" + digits + "]");
      size_t idx = std::stoul(digits);
      if (!cur->is_array() || idx >= cur->size())
        throw InputError(origin, path, "no array element " + walked + "[" + std::to_string(idx) + "]");
      cur = &(*cur)[idx];
      walked += "[" + std::to_string(idx) + "]";
      i = close + 1;
      continue;
    }
    size_t end = path.find_first_of(".[", i);
    std::string key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (cur->is_null()) *cur = Json::object();  // a missing section: created, checked by the config reader
    if (cur->is_array()) throw InputError(origin, path, walked + " is an array: index it as " + walked + "[0]");
    if (!cur->is_object()) throw InputError(origin, path, walked + " is not an object");
    cur = &(*cur)[key];  // a new key is created; the config reader rejects unknown keys later
    walked += (walked.empty() ? "" : ".") + key;
    i = end == std::string::npos ? path.size() : end;
  }
  *cur = v;
  doc = std::move(work);
}

}  // namespace gpupm
