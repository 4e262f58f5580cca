// Where gpupm's data files (the CUDA prelude, ...) live: the one place that
// decides, so moving them to an installed share directory changes one function.
#pragma once

#include <string>

namespace gpupm {

// `relative` under the data directory: $GPUPM_DATA_DIR when set, else the
// source tree's configs/ (GPUPM_SOURCE_DIR, compiled in).
std::string data_file(const std::string& relative);

}  // namespace gpupm
