// Output files written atomically: every file goes to a temporary beside it,
// then all are renamed, so a reader never sees a half-written output.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gpupm {

// Makes sure DIR exists and is writable (InputError otherwise).
void prepare_output_dir(const std::string& dir);
// Writes every (name, content) under DIR: all temporaries first, then the renames.
void write_outputs(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gpupm
