#include "gpupm/common/param_lister.h"

#include <sstream>

namespace gpupm {

std::string param_range(const ParamInfo& info) {
  std::ostringstream s;
  switch (info.kind) {
    case ParamKind::kInteger:
    case ParamKind::kIntegerList: s << "[" << info.int_min << ", " << info.int_max << "]"; break;
    case ParamKind::kNumber: s << "[" << info.num_min << ", " << info.num_max << "]"; break;
    case ParamKind::kBool: s << "{true, false}"; break;
    case ParamKind::kString:
    case ParamKind::kStringList: s << info.allowed; break;
    case ParamKind::kChoice:
      for (size_t i = 0; i < info.choices.size(); ++i) s << (i ? ", " : "{") << info.choices[i];
      s << "}";
      break;
    default: break;
  }
  return s.str();
}

void ParamLister::add(const ParamInfo& info, Json value, std::string range) {
  rows.push_back({path_of(info.name), info.kind, std::move(value), Json(), info.required(), std::move(range), info.unit,
                  info.description, pattern_of(info.name)});
}

void ParamLister::visit_integer(const ParamInfo& info, uint64_t& value) { add(info, value, param_range(info)); }
void ParamLister::visit_number(const ParamInfo& info, double& value) { add(info, value, param_range(info)); }
void ParamLister::visit_bool(const ParamInfo& info, bool& value) { add(info, value, param_range(info)); }
void ParamLister::visit_string(const ParamInfo& info, std::string& value) { add(info, value, param_range(info)); }
void ParamLister::visit_integer_list(const ParamInfo& info, std::vector<uint32_t>& value) {
  add(info, value, param_range(info));
}

void ParamLister::visit_string_list(const ParamInfo& info, std::vector<std::string>& value) {
  add(info, value, param_range(info));
}
void ParamLister::visit_json_list(const ParamInfo& info, std::vector<Json>& value) {
  add(info, value, info.items == JsonItems::kObjects ? "objects" : "");
}

void ParamLister::visit_json_object(const ParamInfo& info, Json& value) { add(info, value, "an object"); }

// The fields as variant 0 has them, then the patches as they are given.
void ParamLister::visit_patched(const ParamInfo& info, std::vector<Json>& patches,
                                const std::function<void(ParamVisitor&, size_t)>& fields) {
  fields(*this, 0);
  add(info, patches, "changes to the fields above");
}

void ParamLister::merge(ParamLister& sub) {
  rows.insert(rows.end(), sub.rows.begin(), sub.rows.end());
  for (const RuleRow& r : sub.rules) add_rule(r);
}

void ParamLister::add_rule(const RuleRow& row) {
  for (const RuleRow& r : rules)
    if (r.path == row.path) return;  // once per array, not per element
  rules.push_back(row);
}

void ParamLister::visit_section(const ParamInfo& info, const SectionBody& body) {
  ParamLister sub(path_of(info.name), pattern_of(info.name), pass_);
  body(sub);
  merge(sub);
}

void ParamLister::visit_section_or_file(const ParamInfo& info, std::string& file,
                                        const std::function<std::string(const std::string&)>& resolve,
                                        const SectionBody& body) {
  (void)resolve;
  ParamInfo as_file = info;
  as_file.kind = ParamKind::kString;
  add(as_file, file, "a JSON file (\"\": given inline)");
  visit_section(info, body);
}

void ParamLister::visit_list(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                             const std::function<void(ParamVisitor&, size_t)>& item) {
  if (pass_ == Pass::kDefaults && size == 0) resize(size = 1);  // one element to take the defaults from
  for (size_t i = 0; i < size; ++i) {
    ParamLister sub(path_of(info.name) + "[" + std::to_string(i) + "]", pattern_of(info.name) + "[]", pass_);
    item(sub, i);
    merge(sub);
  }
}

void ParamLister::visit_rule(const std::string& name, const std::string& description, const RuleCheck& check) {
  (void)check;
  add_rule({pattern_of(name), description});
}

void ParamLister::visit_map(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                            const std::function<std::string&(size_t)>& key,
                            const std::function<void(ParamVisitor&, size_t)>& item) {
  if (pass_ == Pass::kDefaults && size == 0) {  // one element to take the defaults from
    resize(size = 1);
    key(0) = "*";
  }
  for (size_t i = 0; i < size; ++i) {
    ParamLister sub(path_of(info.name) + "." + key(i), pattern_of(info.name) + ".*", pass_);
    item(sub, i);
    merge(sub);
  }
}

void ParamLister::visit_exact_number(const ParamInfo& info, Json& value) { add(info, value, "a number"); }

void ParamLister::take_defaults(const ParamLister& defaults) {
  std::map<std::string, Json> by_pattern;
  for (const ParamRow& d : defaults.rows) by_pattern.emplace(d.pattern, d.value);
  for (ParamRow& r : rows) {
    if (r.required) continue;
    auto it = by_pattern.find(r.pattern);
    if (it != by_pattern.end()) r.default_value = it->second;
  }
}

}  // namespace gpupm
