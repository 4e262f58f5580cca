#include "gpupm/common/param.h"

namespace gpupm {

ParamInfo ParamVisitor::make(const char* name, ParamKind kind, Presence presence, const char* unit,
                             const char* description) {
  ParamInfo info;
  info.name = name;
  info.kind = kind;
  info.presence = presence;
  info.unit = unit;
  info.description = description;
  return info;
}

void ParamVisitor::number(const char* name, double& field, double lo, double hi, const char* unit,
                          const char* description, Presence presence) {
  ParamInfo info = make(name, ParamKind::kNumber, presence, unit, description);
  info.num_min = lo;
  info.num_max = hi;
  visit_number(info, field);
}

void ParamVisitor::flag(const char* name, bool& field, const char* description) {
  visit_bool(make(name, ParamKind::kBool, Presence::kOptional, "", description), field);
}

void ParamVisitor::text(const char* name, std::string& field, const char* description, Presence presence) {
  visit_string(make(name, ParamKind::kString, presence, "", description), field);
}

void ParamVisitor::choice(const char* name, std::string& field, const std::vector<std::string>& choices,
                          const char* description, Presence presence) {
  ParamInfo info = make(name, ParamKind::kChoice, presence, "", description);
  info.choices = choices;
  visit_string(info, field);
}

void ParamVisitor::text_matching(const char* name, std::string& field, const char* pattern, const char* allowed,
                                 const char* description, Presence presence) {
  ParamInfo info = make(name, ParamKind::kString, presence, "", description);
  info.pattern = pattern;
  info.allowed = allowed;
  visit_string(info, field);
}

void ParamVisitor::text_list(const char* name, std::vector<std::string>& field, size_t min, size_t max,
                             const char* pattern, const char* allowed, const char* description, Presence presence) {
  ParamInfo info = make(name, ParamKind::kStringList, presence, "", description);
  info.min_items = min;
  info.max_items = max;
  info.pattern = pattern;
  info.allowed = allowed;
  visit_string_list(info, field);
}

void ParamVisitor::json_list(const char* name, std::vector<nlohmann::json>& field, size_t min, size_t max,
                             JsonItems items, const char* description, Presence presence) {
  ParamInfo info = make(name, ParamKind::kJsonList, presence, "", description);
  info.min_items = min;
  info.max_items = max;
  info.items = items;
  visit_json_list(info, field);
}

void ParamVisitor::json_object(const char* name, nlohmann::json& field, const char* description, Presence presence) {
  visit_json_object(make(name, ParamKind::kJsonObject, presence, "", description), field);
}

void ParamVisitor::patched_fields(const char* name, std::vector<nlohmann::json>& patches, size_t max,
                                  const char* description, const std::function<void(ParamVisitor&, size_t)>& fields) {
  ParamInfo info = make(name, ParamKind::kJsonList, Presence::kOptional, "", description);
  info.min_items = 1;
  info.max_items = max;
  info.items = JsonItems::kObjects;
  visit_patched(info, patches, fields);
}

void ParamVisitor::exact_number(const char* name, nlohmann::json& field, const char* description, Presence presence) {
  visit_exact_number(make(name, ParamKind::kExactNumber, presence, "", description), field);
}

void ParamVisitor::integer_list(const char* name, std::vector<uint32_t>& field, uint64_t lo, uint64_t hi,
                                const char* description) {
  ParamInfo info = make(name, ParamKind::kIntegerList, Presence::kOptional, "", description);
  info.int_min = lo;
  info.int_max = hi;
  visit_integer_list(info, field);
}

void ParamVisitor::section(const char* name, Presence presence, const char* description, const SectionBody& body) {
  visit_section(make(name, ParamKind::kSection, presence, "", description), body);
}

void ParamVisitor::section_or_file(const char* name, const char* description, std::string& file,
                                   const std::function<std::string(const std::string&)>& resolve,
                                   const SectionBody& body) {
  visit_section_or_file(make(name, ParamKind::kSection, Presence::kOptional, "", description), file, resolve, body);
}

const char* param_kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::kInteger: return "integer";
    case ParamKind::kNumber: return "number";
    case ParamKind::kBool: return "bool";
    case ParamKind::kString: return "string";
    case ParamKind::kChoice: return "choice";
    case ParamKind::kIntegerList: return "integers";
    case ParamKind::kSection: return "object";
    case ParamKind::kList: return "array";
    case ParamKind::kStringList: return "strings";
    case ParamKind::kJsonList: return "values";
    case ParamKind::kExactNumber: return "number";
    case ParamKind::kMap: return "objects";
    case ParamKind::kJsonObject: return "object";
  }
  return "?";
}

}  // namespace gpupm
