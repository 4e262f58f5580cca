// Where gpupm's shipped data (configs/: GPU configs, workloads, PDN packages,
// experiments, the CUDA prelude; scripts/: the plot scripts) lives: the one
// place that decides. No path is compiled in; the data root is, first found:
//   1. the folder given to set_data_dir() (an embedding program's choice),
//   2. $GPUPM_DATA_DIR,
//   3. beside the running executable: <bindir>/../share/gpupm (an install),
//      or <bindir>/gpupm-data (the link CMake makes in the build tree),
//      each only if it holds configs/,
//   4. the working directory (e.g. a source checkout).
#pragma once

#include <string>

namespace gpupm {

// Makes `dir` the data root for this process (empty: back to the lookup).
void set_data_dir(const std::string& dir);

// The data root, found as above (looked up again at each call: cheap).
std::string data_root();

// `relative` (configs/..., scripts/...) under the data root.
std::string data_file(const std::string& relative);

// gpupm's cache folder (compiled PTX, generated inputs): $GPUPM_CACHE_DIR, else
// $XDG_CACHE_HOME/gpupm, else $HOME/.cache/gpupm, else <temp>/gpupm-cache.
std::string gpupm_cache_dir();

// While one is alive (per thread), paths named inside input files resolve
// against the folder of `file`, the input file being read, first.
class InputFileScope {
 public:
  explicit InputFileScope(const std::string& file);
  ~InputFileScope();
  InputFileScope(const InputFileScope&) = delete;
  InputFileScope& operator=(const InputFileScope&) = delete;

 private:
  std::string outer_;
};

// A file a user names (`gpupm run --gpu`, an embedding's RunInputs): unchanged
// if absolute or found from the working directory; else under the data root if
// there (so "configs/gpu/gtx480.json" works outside a source checkout); else
// unchanged, so the reader's message names it as written.
std::string locate_input_file(const std::string& path);

// A path named inside an input file (a GPU config's pdn.network): unchanged if
// absolute; else, first found, under the folder of the innermost
// InputFileScope's file, from the working directory (a --set value), under the
// data root (shipped configs/... names); else unchanged, so the reader's
// message names it as written.
std::string resolve_input_path(const std::string& path);

}  // namespace gpupm
