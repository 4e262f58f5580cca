// Reads a JSON object into a config struct by walking its declaration
// (common/param.h). Messages come from JsonReader: the file, the JSON path and
// what is allowed (the declared range); unknown keys are the caller's finish().
#pragma once

#include "common/json_reader.h"
#include "common/param.h"

namespace gpupm {

class JsonParamReader : public ParamVisitor {
 public:
  explicit JsonParamReader(JsonReader& r) : r_(r) {}
  bool given(const std::string& name) const override { return r_.has(name); }

 protected:
  void visit_integer(const ParamInfo& info, uint64_t& value) override;
  void visit_number(const ParamInfo& info, double& value) override;
  void visit_bool(const ParamInfo& info, bool& value) override;
  void visit_string(const ParamInfo& info, std::string& value) override;
  void visit_integer_list(const ParamInfo& info, std::vector<uint32_t>& value) override;
  void visit_section(const ParamInfo& info, const SectionBody& body) override;
  void visit_section_or_file(const ParamInfo& info, std::string& file,
                             const std::function<std::string(const std::string&)>& resolve,
                             const SectionBody& body) override;
  void visit_list(const ParamInfo& info, size_t size, const std::function<void(size_t)>& resize,
                  const std::function<void(ParamVisitor&, size_t)>& item) override;
  void visit_rule(const std::string& name, const std::string& description, const RuleCheck& check) override;

 private:
  JsonReader& r_;
};

// Reads the keys S declares from r into s (starting from s's values: the defaults).
template <class S>
void read_params(JsonReader& r, S& s) {
  JsonParamReader v(r);
  describe(v, s);
}

}  // namespace gpupm
