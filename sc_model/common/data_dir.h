// Where gpupm's data files (the CUDA prelude, shipped configs, plot scripts)
// live: the one place that decides, so moving them to an installed share
// directory changes this file only.
#pragma once

#include <string>

namespace gpupm {

// `relative` under the data directory: $GPUPM_DATA_DIR when set, else the
// source tree's configs/.
std::string data_file(const std::string& relative);

// `relative` under the source tree's root (configs/..., scripts/...).
// Only data_dir.cc knows that root, so no other object embeds a path.
std::string source_tree_file(const std::string& relative);

}  // namespace gpupm
