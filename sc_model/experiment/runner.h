// What every experiment shares: its options, running its simulations through
// the run pool, reading its config's common part, and writing its summary.
// An experiment E (see equalizer/equalizer.h) plugs into run_experiment<E> with
//   using Config;  static Config load(const ExperimentOptions&, const std::string& shipped_config);
//   static std::vector<RunSpec> plan(const Config&, const RunReports& done, size_t stage);
//   static ExperimentSummary analyse(const Config&, const RunReports&, const std::vector<ExperimentRuns>& stages);
// plan is called for stage 0, 1, ... with the reports of the runs so far until
// it returns no runs (stage 0 always runs); analyse reads only the reports.
#pragma once

#include "gpupm/common/json_reader.h"
#include "gpupm/experiment/report_view.h"
#include "gpupm/sweep/run_executor.h"

#include <functional>
#include <string>
#include <vector>

namespace gpupm {

struct ExperimentOptions {
  std::string name;
  std::string out_dir;
  std::string config;             // default: configs/experiments/NAME.json (NAME_real.json for --suite real)
  std::string suite;              // --suite: "synthetic" or "real"; empty: the config's (the default config: synthetic)
  std::vector<std::string> only;  // run only these kernels (a quick subset)
  std::vector<std::string> sets;  // --set PATH=VALUE added to every run (e.g. gpu.controller_impl=lockstep)
  std::string scale = "ci";       // --scale: the programs' inputs, passed to every run (program/workload_scale.h)
  ExecutorOptions exec;           // where and how many at once the runs execute
};

// Run `id`: `gpupm run --gpu GPU --workload WORKLOAD EXTRA...`.
RunSpec workload_run(const std::string& id, const std::string& gpu, const std::string& workload,
                     const std::vector<std::string>& extra);

// An experiment's simulations in OUT_DIR/runs (created if missing) through the run executor, with the options'
// --set overrides, --scale (when not ci) and --plugin files added to every run (so to its fingerprint). ok is false,
// and the failed runs are listed on stderr, if any run failed.
struct ExperimentRuns {
  std::vector<RunOutcome> outcomes;
  double wall_seconds = 0;
  double cpu_seconds = 0;  // of the runs with a record (rundir::cpu_seconds), reused ones included
  size_t timed = 0;        // how many runs have that record
  size_t reused = 0;
  int jobs = 1;  // local processes used
  bool ok = true;
  std::string scale = "ci";  // the runs' --scale
};
ExperimentRuns run_experiment_runs(std::vector<RunSpec> specs, const ExperimentOptions& opt);
// Several stages' runs as one, for a summary's header: outcomes, wall and CPU
// time and reuse added up; the jobs and ok of the first stage.
ExperimentRuns all_stages(const std::vector<ExperimentRuns>& stages);

// The suites an experiment runs on: "synthetic" (kernel profiles) and "real" (CUDA programs).
const std::vector<std::string>& suite_names();
// --suite checked: InputError listing the allowed values otherwise.
void check_suite_option(const std::string& suite);
// The config an experiment reads: --config, else SHIPPED_CONFIG for the
// synthetic suite, else its sibling NAME_real.json.
std::string experiment_config_file(const ExperimentOptions& opt, const std::string& shipped_config);

// What every experiment config holds (experiment_params.h declares it): a GPU
// config and a folder of workloads named after the entries of one list.
struct SuiteConfig {
  std::string file;  // the experiment config
  std::string gpu;   // resolved paths
  std::string suite;
  bool real = false;  // the config's "suite" is "real"
};
// A path of a config: absolute, or relative to the data root (common/data_dir.h).
std::string source_relative(const std::string& path);
// Reads PROFILE as `gpupm run` would, so a bad one fails (InputError) before anything runs.
void check_profile(const std::string& profile);
// Reads the program workload PROGRAM on GPU at SCALE as `gpupm run` would (generating its inputs, compiling
// its kernels, checking its buffers and launches), running nothing; returns its
// launch list's entries. A bad one throws InputError.
struct ProgramLaunch {
  std::string kernel;
  uint32_t warps_per_cta = 0, max_ctas_per_sm = 0, repeat = 1;
};
std::vector<ProgramLaunch> check_program(const std::string& gpu, const std::string& program,
                                         const std::string& scale = "ci");
// Adds APP (its profile in app.file) to APPS after check_profile, when --only wants it.
template <class App>
void add_checked_app(std::vector<App>& apps, App app, bool wanted) {
  if (!wanted) return;
  check_profile(app.file);
  apps.push_back(std::move(app));
}
// The same for a real suite's program on GPU (check_program).
template <class App>
void add_checked_program(std::vector<App>& apps, App app, bool wanted, const std::string& gpu,
                         const std::string& scale) {
  if (!wanted) return;
  check_program(gpu, app.file, scale);
  apps.push_back(std::move(app));
}

// An experiment's outputs: summary.json and summary.md.
struct ExperimentSummary {
  Json json;
  std::string markdown;
};
// summary.json's leading fields: experiment, gpupm (version, build_id), runs, reused_runs, wall_seconds,
// cpu_seconds and timed_runs (the runs' CPU time, where recorded), jobs, and scale when the runs were not at ci.
Json summary_header(const std::string& experiment, const ExperimentRuns& runs);
// "N simulations, R of them reused from an earlier run (J jobs, W s wall; the simulations took C core-hours)."
// (+ which runs were timed when not all, and the scale when not ci)
std::string runs_sentence(const ExperimentRuns& runs);
// Writes summary.json and summary.md atomically, draws the plots with
// scripts/PLOT_SCRIPT OUT_DIR (a warning, not an error, if that fails), and
// prints the Markdown (without its "## Claims" section unless print_claims).
void write_summary(const std::string& out_dir, const ExperimentSummary& summary, const std::string& plot_script,
                   bool print_claims);

// One stage's runs, their reports read into REPORTS; false if a run failed.
bool run_stage(std::vector<RunSpec> specs, const ExperimentOptions& opt, RunReports& reports,
               std::vector<ExperimentRuns>& stages);

// Plans, runs (stage by stage), analyses and writes the summary of experiment E.
// Says on stderr when this build names no commit (uncommitted changes, or
// built outside git): its summary.json cannot be reproduced, so it is no result.
void warn_if_unreproducible();

template <class E>
int run_experiment(const ExperimentOptions& opt, const std::string& shipped_config, const std::string& plot_script,
                   bool print_claims) {
  const typename E::Config config = E::load(opt, shipped_config);
  warn_if_unreproducible();
  RunReports reports;
  std::vector<ExperimentRuns> stages;
  for (size_t stage = 0;; ++stage) {
    std::vector<RunSpec> specs = E::plan(config, reports, stage);
    if (stage > 0 && specs.empty()) break;
    if (!run_stage(std::move(specs), opt, reports, stages)) return 1;  // kExitFailure
  }
  write_summary(opt.out_dir, E::analyse(config, reports, stages), plot_script, print_claims);
  return 0;
}

}  // namespace gpupm
