// Running many `gpupm run` simulations: the one runner behind every sweep and
// every experiment. Each run has its own directory DIR/runs/<id>/ with
// report.json, epochs.csv, log.txt (the child's stdout and stderr), exit_status
// and inputs.fingerprint. A run whose report.json is complete and whose
// fingerprint matches is reused, so an interrupted or partly failed batch
// resumes where it stopped. Two executors:
//   local  a pool of N child processes on this machine;
//   slurm  one `sbatch --array` job over a manifest (one run a line), polled
//          with squeue until done; needs DIR on a filesystem shared with the
//          compute nodes.
// Both leave the same files in the run directories, so everything read back
// from them (results.csv, experiment summaries) is the same.
#pragma once

#include "gpupm/platform/run_setup.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpupm {

struct RunSpec {
  RunSpec() = default;
  RunSpec(std::string id_, std::vector<std::string> args_, std::string fingerprint_ = "")
      : id(std::move(id_)), args(std::move(args_)), fingerprint(std::move(fingerprint_)) {}
  std::string id;                 // directory name under runs/
  std::vector<std::string> args;  // arguments after `gpupm run`, without --out
  std::string fingerprint;        // what "same inputs" means; empty: inputs_fingerprint(args)
  bool at_scale = false;          // its workload was written at the experiment's --scale: not passed again
};

// What a run's results were made from, kept in its directory's
// inputs.fingerprint (one "key value" line each): which run (its arguments, or
// a sweep's resolved run document), which gpupm build (common/build_info.h) and
// the contents of every input file (the GPU config, the workload, a --pdn
// package, the PDN network file the config names, any file a --set names).
struct RunFingerprint {
  std::string run, build, inputs;
  std::string text() const;
  static RunFingerprint parse(const std::string& text);  // fields empty if absent
};
// A digest of a run's arguments.
std::string args_fingerprint(const RunSpec& spec);
// Digests of the files runs read, for one pass over a batch: runs that load
// the same GPU config and workload (they differ only in policy settings) are
// loaded once, and a set of files is hashed once.
class InputDigests {
 public:
  // A digest of the contents of every file a run with these arguments reads.
  std::string fingerprint(const std::vector<std::string>& args);

 private:
  std::vector<std::string> files_of(const std::vector<std::string>& args);
  std::map<std::string, std::set<std::string>> loaded_files_;  // by load key
  std::map<std::string, std::string> digests_;                 // by the list of files
};
// A digest of the contents of every file the run reads.
std::string input_files_fingerprint(const std::vector<std::string>& args);
// spec.fingerprint (or args_fingerprint) with this build's id and the input files' digest.
RunFingerprint fingerprint_of(const RunSpec& spec);
RunFingerprint fingerprint_of(const RunSpec& spec, InputDigests& digests);

// The inputs a `gpupm run` with these arguments loads (--gpu, --workload, --pdn, --policy, --set, --seed, --scale).
RunInputs run_inputs_of(const std::vector<std::string>& args);
// Loads every run as `gpupm run` would (throws InputError, exit 2): a batch
// with a bad input stops before anything runs instead of failing run by run.
void check_runs(const std::vector<RunSpec>& specs);

// Takes DIR/sweep.lock (flock, holding our pid) for the rest of this process's
// life: a second sweep or experiment started on a directory a live one uses is
// refused (InputError naming DIR and the holder's pid) instead of both writing runs/.
void lock_output_dir(const std::string& out_dir);

struct RunOutcome {
  std::string id;
  std::string dir;
  int status = -1;         // exit status (0 ok); 128+N if killed by signal N; -1 no result at all
  bool reused = false;     // its report was already there
  bool submitted = false;  // handed to a batch system that will finish it later (slurm, detached)
  std::string log_tail;    // for a failed run: the last lines of its log
};

struct SlurmOptions {
  std::string partition;                // sbatch --partition (empty: the cluster's default)
  std::string time_limit;               // sbatch --time, per array task (empty: the partition's default)
  int throttle = 0;                     // at most this many array tasks at once (--array=0-N%K); 0: no limit
  std::vector<std::string> extra_args;  // further sbatch arguments, passed as given
  std::string job_name = "gpupm";
  double poll_seconds = 2.0;  // squeue polling period
  // Detached: submit the array and then this shell command as a job depending on
  // it (--dependency=afterany), and return at once. Empty: wait for the array.
  std::string detach_collect_command;
};

struct ExecutorOptions {
  std::string kind = "local";        // "local" or "slurm"
  int jobs = 0;                      // local: worker processes; 0: the number of cores
  std::string binary;                // the gpupm program to run; empty: this process's own executable
  bool reuse_stale = false;          // keep complete runs made by another build or from changed input files
  std::vector<std::string> plugins;  // policy plugins (--plugin) every run loads: see pass_plugins
  SlurmOptions slurm;
};

// Adds `--plugin FILE` (made absolute) for every plugin to every run: each
// child run loads them, and each plugin's content is one of the run's input
// files, so in its fingerprint (a rebuilt plugin makes the runs stale).
void pass_plugins(std::vector<RunSpec>& specs, const std::vector<std::string>& plugins);

// Runs every spec not already complete (ids must be unique) and returns one
// outcome per spec, in order. A failed run does not stop the others.
// `progress`: a progress line on stderr (done/total, failures, ETA).
// Throws std::runtime_error if the executor itself cannot work (sbatch fails).
std::vector<RunOutcome> execute_runs(const std::vector<RunSpec>& specs, const std::string& out_dir,
                                     const ExecutorOptions& opt, bool progress);

// Bookkeeping of one run directory, shared by both executors and by collection.
namespace rundir {
// What a run directory holds against the run wanted now.
enum class State {
  kMissing,      // no complete report
  kOtherRun,     // a complete report of a run with other arguments (never reused)
  kComplete,     // a complete report of this run, this build, these input files
  kStaleBuild,   // ... made by a different gpupm build
  kStaleInputs,  // ... from input files whose contents changed since
};
State state(const std::string& dir, const RunFingerprint& fingerprint);
// Why a stale run is stale, for messages: "built by a different gpupm", "an input file changed".
const char* stale_reason(State s);
// kStaleBuild or kStaleInputs.
bool stale(State s);
// kComplete, or stale and reuse_stale: report.json is there, parses, has a total.
bool complete(const std::string& dir, const RunFingerprint& fingerprint, bool reuse_stale = false);
// Before a (re)run: creates the directory, removes an old report and exit
// status, writes the fingerprint.
void prepare(const std::string& dir, const RunFingerprint& fingerprint);
// What a finished (or never finished) run left: status from exit_status
// (-1 if absent), log tail for failures. Does not check the fingerprint.
RunOutcome read(const std::string& id, const std::string& dir);
void write_status(const std::string& dir, int status);
// The CPU seconds (user + system) the run's process took, in cpu_seconds
// beside exit_status (a local run's; not part of its results).
void write_cpu_seconds(const std::string& dir, double seconds);
// What write_cpu_seconds left; -1 when the run has no record (an older build, a Slurm task).
double cpu_seconds(const std::string& dir);
// The last `lines` non-empty lines of a file ("" if unreadable).
std::string tail(const std::string& file, size_t lines = 8);
}  // namespace rundir

int default_jobs();             // number of online cores
std::string self_executable();  // absolute path of this process's program
// Quotes for a POSIX shell ('...' with ' escaped).
std::string shell_quote(const std::string& s);
// One manifest line: the id, a tab, the shell-quoted `gpupm run` arguments.
std::string manifest_line(const RunSpec& spec);
// The batch script each array task runs: line SLURM_ARRAY_TASK_ID+1 of the manifest.
std::string slurm_task_script(const std::string& gpupm, const std::string& manifest, const std::string& runs_dir);

}  // namespace gpupm
