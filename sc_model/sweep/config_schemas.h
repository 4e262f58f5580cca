// The JSON Schemas of gpupm's inputs, generated from the declarations
// (common/param.h) and committed as docs/schema/KIND.schema.json
// (`gpupm params --schema KIND` prints one; a test keeps the files equal).
#pragma once

#include "gpupm/common/json_fwd.h"

#include <string>
#include <vector>

namespace gpupm {

// gpu_config, workload, sweep_spec, policy.
const std::vector<std::string>& config_schema_kinds();
// The schema document of one kind; InputError (naming --schema) for another.
Json config_schema(const std::string& kind);

}  // namespace gpupm
