// `gpupm experiment NAME`: a seed paper's evaluation run through the run pool,
// summarised as JSON, Markdown (with a claims table) and PNG plots.
#pragma once

#include "common/json_reader.h"
#include "sweep/run_executor.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gpupm {

struct ExperimentOptions {
  std::string name;
  std::string out_dir;
  std::string config;  // default: configs/experiments/NAME.json
  std::vector<std::string> only;  // run only these kernels (a quick subset)
  std::vector<std::string> sets;  // --set PATH=VALUE added to every run (e.g. gpu.controller_impl=lockstep)
  ExecutorOptions exec;           // where and how many at once the runs execute
};

int command_experiment(const ExperimentOptions& opt);

// One testable claim of a paper, judged on our model.
struct Claim {
  std::string id;
  std::string text;
  std::string paper;     // the paper's figure
  std::string measured;  // ours
  std::string tolerance;
  std::string verdict;   // "pass", "fail" or "n/a"
  std::string note;      // one line: why it failed, or what stands in for it
};

// A claim judged pass/fail (the note only stands when it fails), or one our model cannot judge.
Claim judged_claim(std::string id, std::string text, std::string paper, std::string measured, std::string tolerance,
                   bool ok, std::string note_if_fail = "");
Claim na_claim(std::string id, std::string text, std::string paper, std::string note);

Json claims_json(const std::vector<Claim>& claims);
std::string claims_markdown(const std::vector<Claim>& claims);

// Run `id`: `gpupm run --gpu GPU --workload WORKLOAD EXTRA...`.
RunSpec workload_run(const std::string& id, const std::string& gpu, const std::string& workload,
                     const std::vector<std::string>& extra);

// An experiment's simulations in OUT_DIR/runs (created if missing) through the run executor, with the options'
// --set overrides added to every run (so to its fingerprint). ok is false, and
// the failed runs are listed on stderr, if any run failed.
struct ExperimentRuns {
  std::vector<RunOutcome> outcomes;
  double wall_seconds = 0;
  size_t reused = 0;
  int jobs = 1;  // local processes used
  bool ok = true;
};
ExperimentRuns run_experiment_runs(std::vector<RunSpec> specs, const ExperimentOptions& opt);

// What every experiment config holds: a GPU config and a folder of workload
// profiles named after the entries of one list ("kernels" or "apps").
struct SuiteConfig {
  std::string file;   // the experiment config
  std::string gpu;    // resolved paths
  std::string suite;
};
// Reads opt.config (default configs/experiments/DEFAULT_NAME.json): name,
// description, gpu, suite_dir; read_rest(r) reads the other top-level keys and
// read_entry(r, name, profile, wanted) each element of LIST_KEY (every element
// is validated; wanted is false for those --only leaves out). Every --only name
// must exist. Bad input throws InputError.
SuiteConfig read_suite_config(
    const ExperimentOptions& opt, const std::string& default_name, const std::string& list_key,
    const std::function<void(JsonReader&)>& read_rest,
    const std::function<void(JsonReader&, const std::string& name, const std::string& profile, bool wanted)>& read_entry);

// The runs' reports, read once each (null when a report is missing or unreadable).
class ExperimentResults {
 public:
  explicit ExperimentResults(std::string out_dir) : dir_(std::move(out_dir)) {}
  const Json& report(const std::string& id);
  bool has(const std::string& id) { return report(id).is_object(); }
  double time(const std::string& id) { return report(id)["total"]["sim_time_s"].get<double>(); }
  double energy(const std::string& id) { return report(id)["total"]["energy_j"]["total"].get<double>(); }

 private:
  std::string dir_;
  std::map<std::string, Json> cache_;
};

// summary.json's leading fields: experiment, gpupm (version, build_id), runs, reused_runs, wall_seconds, jobs.
Json summary_header(const std::string& experiment, const ExperimentRuns& runs);
// "N simulations, R of them reused from an earlier run (J jobs, W s wall)."
std::string runs_sentence(const ExperimentRuns& runs);
// Writes summary.json and summary.md atomically, draws the plots with
// scripts/PLOT_SCRIPT OUT_DIR (a warning, not an error, if that fails), and
// prints the Markdown (without its "## Claims" section unless print_claims).
void write_summary(const std::string& out_dir, const Json& summary, const std::string& markdown,
                   const std::string& plot_script, bool print_claims);

// Geometric mean (of positive values); 0 for an empty list.
double geomean(const std::vector<double>& v);
std::string fixed(double x, int digits);  // "%.*f"
std::string pct(double ratio);             // 1.123 -> "+12.3%", 0.79 -> "-21.0%"

// Reads an experiment config as the experiment does, running nothing (InputError: exit 2).
void check_equalizer_config(const ExperimentOptions& opt);
void check_core_shutdown_config(const ExperimentOptions& opt);
void check_voltage_noise_config(const ExperimentOptions& opt);
void check_sm_allocation_config(const ExperimentOptions& opt);
void check_harmonia_config(const ExperimentOptions& opt);
// For `gpupm validate`: reads FILE as the config of the experiment its "name"
// names; returns that name.
std::string validate_experiment_config(const std::string& file);

int run_equalizer_experiment(const ExperimentOptions& opt);
int run_core_shutdown_experiment(const ExperimentOptions& opt);
int run_voltage_noise_experiment(const ExperimentOptions& opt);
int run_sm_allocation_experiment(const ExperimentOptions& opt);
int run_harmonia_experiment(const ExperimentOptions& opt);

}  // namespace gpupm
