// A policy's settings declared once (common/param.h), as block configs are:
// the policy's factory reads them from the run document's "policy" object
// (read_policy_settings), `gpupm params --policy NAME` lists them and
// docs/schema/policy.schema.json is written from them. A declaration may depend
// on the GPU the policy runs on (its V/F level names, its SM count): it is
// made for a PolicyTarget.
#pragma once

#include "gpupm/common/controller_impl.h"
#include "gpupm/common/param.h"
#include "gpupm/common/param_reader.h"
#include "gpupm/freq/dvfs_config.h"

#include <functional>
#include <string>
#include <vector>

namespace gpupm {

// What a policy's settings are declared for: its name (several policies share
// one declaration), the GPU's V/F levels and its controller setup.
struct PolicyTarget {
  const std::string& name;
  const DvfsConfig& dvfs;
  const ControllerSetup& ctl;
};

// Walks one settings struct, at its defaults for the target, with each visitor
// in turn (e.g. a reader, then a lister of the values read).
using PolicyParamWalk = std::function<void(const PolicyTarget&, const std::vector<ParamVisitor*>&)>;

// The walk of settings S declared by `void describe(ParamVisitor&, S&, const PolicyTarget&)`.
template <class S>
PolicyParamWalk settings_walk() {
  return [](const PolicyTarget& t, const std::vector<ParamVisitor*>& visitors) {
    S s{};
    for (ParamVisitor* v : visitors) describe(*v, s, t);
  };
}

// Reads settings S from the policy object `p` (its "name" already read).
template <class S>
S read_policy_settings(JsonReader& p, const PolicyTarget& t) {
  S s{};
  JsonParamReader reader(p);
  describe(reader, s, t);
  return s;
}

// A V/F level of domain `d`, named in the policy object by one of the GPU's
// level names and kept as its index in `level`. A level still at kPresetLevel
// starts at `preset` (a level name; "" for the nominal level); a preset the GPU
// lacks is a broken rule.
inline constexpr uint32_t kPresetLevel = ~0u;
void level_param(ParamVisitor& v, const char* name, uint32_t& level, const DomainDvfs& d, const char* preset,
                 const char* description);

}  // namespace gpupm
