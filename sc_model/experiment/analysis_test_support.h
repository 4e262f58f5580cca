// What the experiments' analysis tests share: hand-made reports go into
// analyse(), and the tests look up judged claims in the summary it returns.
#pragma once

#include "gpupm/experiment/runner.h"

#include <string>
#include <vector>

namespace gpupm::analysis_test {

// The claim `id` of a summary's "claims" array (null when there is none).
inline Json claim(const Json& summary, const std::string& id) {
  for (const Json& c : summary["claims"])
    if (c["id"] == id) return c;
  return Json();
}

// analyse()'s stage list for experiments that plan one stage.
inline const std::vector<ExperimentRuns> kOneStage(1);

}  // namespace gpupm::analysis_test
