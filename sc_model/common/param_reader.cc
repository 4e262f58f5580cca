#include "gpupm/common/param_reader.h"

#include <algorithm>
#include <regex>

namespace gpupm {

namespace {
bool matches(const ParamInfo& info, const std::string& text) {
  return info.pattern.empty() || std::regex_search(text, std::regex(info.pattern));
}
std::string element(const std::string& name, size_t i) { return name + "[" + std::to_string(i) + "]"; }
}  // namespace

void JsonParamReader::visit_integer(const ParamInfo& info, uint64_t& value) {
  value = info.required() ? r_.get_uint(info.name, info.int_min, info.int_max)
                          : r_.get_uint(info.name, info.int_min, info.int_max, value);
}

void JsonParamReader::visit_number(const ParamInfo& info, double& value) {
  value = info.required() ? r_.get_double(info.name, info.num_min, info.num_max)
                          : r_.get_double(info.name, info.num_min, info.num_max, value);
}

void JsonParamReader::visit_bool(const ParamInfo& info, bool& value) { value = r_.get_bool(info.name, value); }

void JsonParamReader::visit_string(const ParamInfo& info, std::string& value) {
  if (info.kind == ParamKind::kChoice && info.required() && !r_.has(info.name))
    r_.fail(info.name, "missing (required)");
  if (info.kind == ParamKind::kChoice) value = r_.get_enum(info.name, info.choices, value);
  else value = info.required() ? r_.get_string(info.name) : r_.get_string(info.name, value);
  if (r_.has(info.name) && !matches(info, value))
    r_.fail(info.name, "expected " + info.allowed + ", got \"" + value + "\"");
}

void JsonParamReader::visit_string_list(const ParamInfo& info, std::vector<std::string>& value) {
  if (!info.required() && !r_.has(info.name)) return;
  const size_t n = r_.array_size(info.name, info.min_items, info.max_items);
  const Json& a = r_.raw(info.name);
  const std::string allowed = info.allowed.empty() ? "a string" : info.allowed;
  value.clear();
  for (size_t i = 0; i < n; ++i) {
    if (!a[i].is_string()) r_.fail(element(info.name, i), "expected " + allowed);
    value.push_back(a[i].get<std::string>());
    if (!matches(info, value.back()))
      r_.fail(element(info.name, i), "expected " + allowed + ", got \"" + value.back() + "\"");
  }
}

void JsonParamReader::visit_json_list(const ParamInfo& info, std::vector<Json>& value) {
  if (!info.required() && !r_.has(info.name)) return;
  const size_t n = r_.array_size(info.name, info.min_items, info.max_items);
  const Json& a = r_.raw(info.name);
  value.clear();
  for (size_t i = 0; i < n; ++i) {
    if (info.items == JsonItems::kObjects && !a[i].is_object()) r_.fail(element(info.name, i), "expected an object");
    if (a[i].is_null()) r_.fail(element(info.name, i), "null is not a value");
    value.push_back(a[i]);
  }
}

void JsonParamReader::visit_json_object(const ParamInfo& info, Json& value) {
  if (!r_.has(info.name)) {
    if (info.required()) r_.fail(info.name, "missing (required)");
    return;
  }
  value = r_.raw(info.name);
  if (!value.is_object()) r_.fail(info.name, "expected an object (" + info.description + ")");
}

// Each variant is read from this object's unread keys merged with its patch, at
// the patch's path (variant 0 alone: at this object's path).
void JsonParamReader::visit_patched(const ParamInfo& info, std::vector<Json>& patches,
                                    const std::function<void(ParamVisitor&, size_t)>& fields) {
  Json base = r_.unread();
  base.erase(info.name);
  visit_json_list(info, patches);
  for (size_t i = 0; i < std::max<size_t>(1, patches.size()); ++i) {
    Json variant = base;
    if (!patches.empty()) variant.merge_patch(patches[i]);
    JsonReader sub(variant, r_.file(), patches.empty() ? r_.path() : r_.path_of(element(info.name, i)));
    JsonParamReader v(sub);
    fields(v, i);
    sub.finish();
  }
  r_.mark_read();
}

void JsonParamReader::visit_integer_list(const ParamInfo& info, std::vector<uint32_t>& value) {
  if (!r_.has(info.name)) return;
  const Json& a = r_.raw(info.name);
  const std::string range = "[" + std::to_string(info.int_min) + ", " + std::to_string(info.int_max) + "]";
  if (!a.is_array()) r_.fail(info.name, "expected an array of integers in " + range);
  value.clear();
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number_unsigned() || a[i].get<uint64_t>() < info.int_min || a[i].get<uint64_t>() > info.int_max)
      r_.fail(info.name, "element " + std::to_string(i) + ": expected an integer in " + range + ", got " + a[i].dump());
    value.push_back(a[i].get<uint32_t>());
  }
}

void JsonParamReader::visit_section(const ParamInfo& info, const SectionBody& body) {
  if (!info.required() && !r_.has(info.name)) return;
  JsonReader s = r_.object(info.name);
  JsonParamReader sub(s);
  body(sub);
  s.finish();
}

void JsonParamReader::visit_section_or_file(const ParamInfo& info, std::string& file,
                                            const std::function<std::string(const std::string&)>& resolve,
                                            const SectionBody& body) {
  if (!r_.has(info.name)) return;
  const Json& v = r_.raw(info.name);
  if (!v.is_string()) return visit_section(info, body);
  file = resolve(v.get<std::string>());
  Json doc;
  try {
    doc = load_json_file(file);
  } catch (const InputError& e) {
    r_.fail(info.name, std::string("cannot read the file it names: ") + e.what());
  }
  JsonReader s(doc, file, "");
  JsonParamReader sub(s);
  body(sub);
  s.finish();
}

void JsonParamReader::visit_list(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                                 const std::function<void(ParamVisitor&, size_t)>& item) {
  (void)size;
  if (!info.required() && !r_.has(info.name)) return;
  resize(r_.array_size(info.name, info.min_items, info.max_items));
  r_.for_each(info.name, info.min_items, info.max_items, [&](JsonReader& element, size_t i) {
    JsonParamReader sub(element);
    item(sub, i);
  });
}

void JsonParamReader::visit_map(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                                const std::function<std::string&(size_t)>& key,
                                const std::function<void(ParamVisitor&, size_t)>& item) {
  (void)size;
  if (!r_.has(info.name)) return;
  const Json& m = r_.raw(info.name);
  if (!m.is_object()) r_.fail(info.name, "expected an object of named objects");
  if (m.size() > info.max_items) r_.fail(info.name, "expected at most " + std::to_string(info.max_items) + " entries");
  JsonReader all = r_.object(info.name);
  resize(m.size());
  size_t i = 0;
  for (auto it = m.begin(); it != m.end(); ++it, ++i) {
    if (!matches(info, it.key())) r_.fail(info.name + "." + it.key(), "expected a key that is " + info.allowed);
    key(i) = it.key();
    JsonReader element = all.object(it.key());
    JsonParamReader sub(element);
    item(sub, i);
    element.finish();
  }
  all.finish();
}

void JsonParamReader::visit_exact_number(const ParamInfo& info, Json& value) {
  if (!r_.has(info.name)) {
    if (info.required()) r_.fail(info.name, "missing (required)");
    return;
  }
  value = r_.raw(info.name);
  if (!value.is_number()) r_.fail(info.name, "expected a number");
}

void JsonParamReader::visit_rule(const std::string& name, const std::string& description, const RuleCheck& check) {
  (void)name;
  (void)description;
  if (auto p = check()) {
    if (p->key.empty()) throw InputError(r_.file(), r_.path(), p->what);  // about the object as a whole
    r_.fail(p->key, p->what);
  }
}

}  // namespace gpupm
