// Scales of a program workload. "ci" is the document as committed (what the
// tests and CI run); "paper" is the input the seed paper ran, too large to
// commit: the workload's "scales": {"paper": {"generator", "args"}} names a
// python3 script that writes it on first use into the cache
// ($GPUPM_CACHE_DIR, else $XDG_CACHE_HOME/gpupm or ~/.cache/gpupm; folder
// inputs/<stem>-paper-<key>/), keyed by the script's text, the text of every
// module it imports from its own folder or from configs/workloads/cuda/, and
// its arguments. The generator protocol is configs/workloads/cuda/README.md,
// "Scales": `python3 GENERATOR OUT_DIR ARGS...` writes OUT_DIR/workload.json
// (a program workload without "program": it runs the declaring workload's
// program) and the files it names. Generation goes into a temporary folder
// renamed into place under a lock, so concurrent runs never see half of it.
#pragma once

#include "gpupm/common/json_reader.h"

#include <string>
#include <vector>

namespace gpupm {

// How long a generator may run: GPUPM_GENERATOR_TIMEOUT seconds, default 1800
// (the suites' largest input, mummer's, takes about half a minute).
constexpr double kDefaultGeneratorTimeoutS = 1800;

// The values of --scale: "ci" (the default) and "paper".
const std::vector<std::string>& scale_names();
// InputError(--scale) unless `scale` is one of scale_names().
void check_scale_option(const std::string& scale);

// A workload file at a scale: the document to run and where its files are.
struct ScaledWorkload {
  Json doc;  // ci: the file's document without "scales"; paper: the generated one with the file's "program"
  std::string inputs_dir;  // where its init files are: empty at ci (the file's folder), else the generated folder
  std::string origin;      // how messages name the document
  Json record;             // null at ci; else {"name", "generator", "args", "key", "inputs"}: the report's "scale"
};

// WORKLOAD_FILE at SCALE, its inputs generated first when the cache lacks them
// (the generation time printed on stderr). InputError (exit 2, before anything
// runs): a workload without that scale (naming the workload and --scale), no
// python3, a failing generator, a generated workload that names a program.
ScaledWorkload load_workload_at_scale(const std::string& workload_file, const std::string& scale);

// The pieces, for tests and tools.
struct ScaleGenerator {
  std::string workload_file;  // the declaring workload
  std::string generator;      // its path (workload folder / declared name)
  std::vector<std::string> args;
  std::string key;  // hex digest of the sources and args
  std::string dir;  // the cache folder the key names
};
// The declared generator of SCALE ("paper") of a program workload file, with its key and cache folder.
ScaleGenerator scale_generator(const std::string& workload_file, const std::string& scale);
// The generator and the modules it imports (transitively) from its folder or
// configs/workloads/cuda/: (name, text), the generator first, then by name.
std::vector<std::pair<std::string, std::string>> generator_sources(const std::string& generator);
// Runs the generator into its cache folder unless that exists; returns the folder.
std::string ensure_generated(const ScaleGenerator& g);
// The digest of a generated folder's files (names and contents; not scale.json).
std::string generated_inputs_digest(const std::string& dir);

}  // namespace gpupm
