#include "gpupm/policy/policy_params.h"

namespace gpupm {

void level_param(ParamVisitor& v, const char* name, uint32_t& level, const DomainDvfs& d, const char* preset,
                 const char* description) {
  std::vector<std::string> names;
  for (const VfLevel& l : d.levels) names.push_back(l.name);
  const int preset_index = *preset ? d.level_index(preset) : int(d.nominal);
  if (level == kPresetLevel) level = preset_index < 0 ? d.nominal : uint32_t(preset_index);
  v.choice_of(name, level, names, description);
  if (preset_index < 0) {
    const std::string what = std::string("this policy needs a V/F level named \"") + preset + "\" in the GPU config";
    v.rule("preset_level", "the level this policy presets exists in the GPU config",
           [name, what]() -> std::optional<ParamProblem> {
             return ParamProblem{name, what};
           });
  }
}

}  // namespace gpupm
