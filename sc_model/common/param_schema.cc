#include "gpupm/common/param_schema.h"

namespace gpupm {

Json SchemaWriter::schema() const {
  Json s = {{"type", "object"}, {"properties", properties_}, {"additionalProperties", false}};
  if (!required_.empty()) s["required"] = required_;
  if (!one_of_.empty()) s["oneOf"] = one_of_;
  if (!rules_.empty()) {
    std::string c = "Rules the reader also checks:";
    for (const std::string& r : rules_) c += " " + r + ";";
    s["$comment"] = c;
  }
  return s;
}

void SchemaWriter::add(const ParamInfo& info, Json property, const Json& value) {
  if (!info.description.empty()) property["description"] = info.description;
  if (!info.unit.empty()) property["x-unit"] = info.unit;
  if (info.required()) required_.push_back(info.name);
  else if (!value.is_null()) property["default"] = value;
  properties_[info.name] = std::move(property);
}

void SchemaWriter::visit_integer(const ParamInfo& info, uint64_t& value) {
  add(info, {{"type", "integer"}, {"minimum", info.int_min}, {"maximum", info.int_max}}, value);
}

void SchemaWriter::visit_number(const ParamInfo& info, double& value) {
  add(info, {{"type", "number"}, {"minimum", info.num_min}, {"maximum", info.num_max}}, value);
}

void SchemaWriter::visit_bool(const ParamInfo& info, bool& value) { add(info, {{"type", "boolean"}}, value); }

void SchemaWriter::visit_string(const ParamInfo& info, std::string& value) {
  Json p = {{"type", "string"}};
  if (info.kind == ParamKind::kChoice) p["enum"] = info.choices;
  if (!info.pattern.empty()) p["pattern"] = info.pattern;
  add(info, p, info.kind == ParamKind::kChoice || !value.empty() ? Json(value) : Json());
}

void SchemaWriter::visit_integer_list(const ParamInfo& info, std::vector<uint32_t>& value) {
  (void)value;
  add(info, {{"type", "array"}, {"items", {{"type", "integer"}, {"minimum", info.int_min}, {"maximum", info.int_max}}}},
      Json());
}

void SchemaWriter::visit_string_list(const ParamInfo& info, std::vector<std::string>& value) {
  (void)value;
  Json item = {{"type", "string"}};
  if (!info.pattern.empty()) item["pattern"] = info.pattern;
  add(info, array_of(info, item), Json());
}

void SchemaWriter::visit_json_list(const ParamInfo& info, std::vector<Json>& value) {
  (void)value;
  const Json item = info.items == JsonItems::kObjects ? Json{{"type", "object"}} : Json{{"not", {{"type", "null"}}}};
  add(info, array_of(info, item), Json());
}

void SchemaWriter::visit_json_object(const ParamInfo& info, Json& value) {
  add(info, {{"type", "object"}}, value.is_object() && !value.empty() ? value : Json());
}

// The fields belong to this object; each patch is an object of the same fields, none required.
void SchemaWriter::visit_patched(const ParamInfo& info, std::vector<Json>& patches,
                                 const std::function<void(ParamVisitor&, size_t)>& fields) {
  SchemaWriter sub;
  fields(sub, 0);
  Json patch = sub.schema();
  patch.erase("required");
  patch.erase("$comment");
  fields(*this, 0);
  visit_json_list(info, patches);
  properties_[info.name]["items"] = patch;
}

void SchemaWriter::visit_alternatives(const std::vector<std::vector<std::string>>& alternatives) {
  for (const auto& keys : alternatives) one_of_.push_back({{"required", keys}});
}

Json SchemaWriter::array_of(const ParamInfo& info, Json items) {
  return {{"type", "array"}, {"minItems", info.min_items}, {"maxItems", info.max_items}, {"items", std::move(items)}};
}

void SchemaWriter::visit_section(const ParamInfo& info, const SectionBody& body) {
  SchemaWriter sub;
  body(sub);
  add(info, sub.schema(), Json());
}

void SchemaWriter::visit_section_or_file(const ParamInfo& info, std::string& file,
                                         const std::function<std::string(const std::string&)>& resolve,
                                         const SectionBody& body) {
  (void)file;
  (void)resolve;
  SchemaWriter sub;
  body(sub);
  Json by_file = {{"type", "string"}, {"description", "the path of a JSON file holding the object"}};
  add(info, {{"oneOf", {by_file, sub.schema()}}}, Json());
}

void SchemaWriter::visit_list(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                              const std::function<void(ParamVisitor&, size_t)>& item) {
  if (size == 0) resize(1);  // a default element to describe (schema_of walks a throwaway struct)
  SchemaWriter sub;
  item(sub, 0);
  add(info, array_of(info, sub.schema()), Json());
}

void SchemaWriter::visit_map(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                             const std::function<std::string&(size_t)>& key,
                             const std::function<void(ParamVisitor&, size_t)>& item) {
  (void)key;
  if (size == 0) resize(1);  // a default element to describe
  SchemaWriter sub;
  item(sub, 0);
  Json map = {{"type", "object"}, {"maxProperties", info.max_items}, {"additionalProperties", sub.schema()}};
  if (!info.pattern.empty()) map["propertyNames"] = {{"pattern", info.pattern}};
  add(info, map, Json());
}

void SchemaWriter::visit_exact_number(const ParamInfo& info, Json& value) { add(info, {{"type", "number"}}, value); }

void SchemaWriter::visit_rule(const std::string& name, const std::string& description, const RuleCheck& check) {
  (void)check;
  rules_.push_back(name + " (" + description + ")");
}

namespace {

bool only_required_alternatives(const Json& one_of) {
  for (const Json& alternative : one_of)
    if (alternative.size() != 1 || !alternative.contains("required")) return false;
  return true;
}

}  // namespace

Json merge_patch_schema(Json s) {
  if (!s.is_object()) return s;
  s.erase("required");
  s.erase("default");  // a key left out keeps the value of what the patch is merged over, not its default
  if (s.contains("oneOf") && only_required_alternatives(s["oneOf"])) s.erase("oneOf");
  if (s.contains("oneOf"))  // a section given inline or as a file name
    for (Json& alternative : s["oneOf"]) alternative = merge_patch_schema(alternative);
  if (s.contains("properties"))
    for (auto it = s["properties"].begin(); it != s["properties"].end(); ++it)
      it.value() = merge_patch_schema(it.value());
  if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
    s["additionalProperties"] = merge_patch_schema(s["additionalProperties"]);
  return s;
}

Json schema_document(const std::string& id, const std::string& title, Json object_schema) {
  object_schema["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  object_schema["$id"] = id;
  object_schema["title"] = title;
  return object_schema;
}

}  // namespace gpupm
