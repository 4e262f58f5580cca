// Lists a config's declared parameters (common/param.h) with their values: the
// rows of `gpupm params`. The defaults come from a second walk over a
// default-constructed struct, where every array holds one default element.
#pragma once

#include "gpupm/common/json_reader.h"
#include "gpupm/common/param.h"

#include <map>

namespace gpupm {

struct ParamRow {
  std::string path;  // e.g. gpu.dvfs.sm.levels[1].mhz
  ParamKind kind;
  Json value;
  Json default_value;  // null: required (no default)
  bool required = false;
  std::string range;  // what is allowed, as the reader's messages say it
  std::string unit;
  std::string description;
  std::string pattern;  // the path with every array index as [] and map key as *: where its default is
};

struct RuleRow {
  std::string path;  // the object the rule belongs to, then its name
  std::string description;
};

class ParamLister : public ParamVisitor {
 public:
  // kDefaults: walking a default-constructed struct (arrays get one element).
  enum class Pass { kValues, kDefaults };
  ParamLister(std::string prefix, Pass pass) : prefix_(prefix), pattern_(std::move(prefix)), pass_(pass) {}

  std::vector<ParamRow> rows;
  std::vector<RuleRow> rules;

  // Fills each row's default from a kDefaults lister of the same declaration.
  void take_defaults(const ParamLister& defaults);

 protected:
  GPUPM_PARAM_VISITOR_OVERRIDES

 private:
  void add(const ParamInfo& info, Json value, std::string range);
  ParamLister(std::string prefix, std::string pattern, Pass pass)
      : prefix_(std::move(prefix)), pattern_(std::move(pattern)), pass_(pass) {}
  static std::string join(const std::string& prefix, const std::string& name) {
    return prefix.empty() ? name : prefix + "." + name;
  }
  std::string path_of(const std::string& name) const { return join(prefix_, name); }
  std::string pattern_of(const std::string& name) const { return join(pattern_, name); }
  void merge(ParamLister& sub);
  void add_rule(const RuleRow& row);
  std::string prefix_;
  std::string pattern_;  // prefix_ with array indices as [] and map keys as *
  Pass pass_;
};

// The rows of s's declaration under `prefix`, each with its default.
template <class S>
std::vector<ParamRow> list_params(const std::string& prefix, S& s, std::vector<RuleRow>* rules = nullptr) {
  S fresh{};
  ParamLister defaults(prefix, ParamLister::Pass::kDefaults);
  describe(defaults, fresh);
  ParamLister values(prefix, ParamLister::Pass::kValues);
  describe(values, s);
  values.take_defaults(defaults);
  if (rules) *rules = values.rules;
  return values.rows;
}

// "[1, 1024]", "[0.01, 1]", "{memory, core}": a declaration's range in the reader's words.
std::string param_range(const ParamInfo& info);

}  // namespace gpupm
