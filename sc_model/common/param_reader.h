// Reads a JSON object into a config struct by walking its declaration
// (common/param.h). Messages come from JsonReader: the file, the JSON path and
// what is allowed (the declared range); unknown keys are the caller's finish().
#pragma once

#include "gpupm/common/json_reader.h"
#include "gpupm/common/param.h"

namespace gpupm {

class JsonParamReader : public ParamVisitor {
 public:
  explicit JsonParamReader(JsonReader& r) : r_(r) {}
  bool given(const std::string& name) const override { return r_.has(name); }

 protected:
  GPUPM_PARAM_VISITOR_OVERRIDES

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
