// Writes the JSON Schema (draft 2020-12) of a declaration (common/param.h):
// docs/schema/*.schema.json. The schema says what the reader accepts key by
// key; the named rules it cannot express are listed in each object's $comment.
#pragma once

#include "gpupm/common/json_reader.h"
#include "gpupm/common/param.h"

namespace gpupm {

class SchemaWriter : public ParamVisitor {
 public:
  // The object schema of everything declared so far.
  Json schema() const;

 protected:
  GPUPM_PARAM_VISITOR_OVERRIDES
  void visit_alternatives(const std::vector<std::vector<std::string>>& alternatives) override;

 private:
  void add(const ParamInfo& info, Json property, const Json& value);
  static Json array_of(const ParamInfo& info, Json items);
  Json one_of_ = Json::array();
  Json properties_ = Json::object();
  std::vector<std::string> required_;
  std::vector<std::string> rules_;
};

// The object schema of S's declaration (walks a default-constructed S: arrays get one element).
template <class S>
Json schema_of() {
  S fresh{};
  SchemaWriter w;
  describe(w, fresh);
  return w.schema();
}

// The schema of a JSON merge patch over documents of `object_schema`: the same
// keys, none required and without defaults, in every object that merges
// (sections and maps); the items of arrays, which a patch replaces whole, keep theirs.
Json merge_patch_schema(Json object_schema);
// A document schema: $schema, $id (the file name under docs/schema/) and title around an object schema.
Json schema_document(const std::string& id, const std::string& title, Json object_schema);

}  // namespace gpupm
