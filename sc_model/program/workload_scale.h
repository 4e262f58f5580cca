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

// DOC, a program workload read from a file in DIR, with every file it names made
// absolute, so that it can be written elsewhere: its program (relative to DIR)
// and its buffers' init files (relative to INPUTS_DIR: DIR, or a generated scale's folder).
void make_workload_paths_absolute(Json& doc, const std::string& dir, const std::string& inputs_dir);

// WORKLOAD_FILE with ARGS in place of its paper scale's generator arguments, for
// a caller that runs the program on other paper-scale inputs than the shared
// workload declares (an experiment's own cuts) without editing it: a copy with
// every path made absolute, written into the cache under a name its content
// decides (workloads/<stem>-<digest>/<stem>.json: one per ARGS, never another's).
// At ci it is the same workload; at paper ARGS enter the inputs' key
// (scale_generator). Returns WORKLOAD_FILE itself when ARGS are its own.
// InputError (scales.paper) when it declares no paper scale.
std::string workload_with_paper_args(const std::string& workload_file, const std::vector<std::string>& args);

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
