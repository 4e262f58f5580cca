// The experiments `gpupm experiment NAME` runs: one table, from which the
// command's help, its dispatch, its error for an unknown name and `gpupm
// validate` of an experiment config all come.
#pragma once

#include "gpupm/common/param_lister.h"
#include "gpupm/common/param_schema.h"
#include "gpupm/experiment/experiment_params.h"
#include "gpupm/experiment/runner.h"

#include <string>
#include <vector>

namespace gpupm {

// An experiment config's parameters as `gpupm params --experiment` lists them.
struct ExperimentListing {
  std::vector<ParamRow> rows;
  std::vector<RuleRow> rules;
};

struct ExperimentEntry {
  std::string name;         // `gpupm experiment NAME`, and the "name" of its config
  std::string config;       // its shipped config: configs/experiments/CONFIG.json
  std::string plot_script;  // scripts/PLOT_SCRIPT OUT_DIR draws its plots
  bool print_claims;        // the terminal output includes the claims table
  // Reads and checks the config as the experiment does, running nothing (InputError: exit 2).
  void (*check)(const ExperimentOptions& opt, const ExperimentEntry& self);
  // Plans, runs, analyses and writes the summary; the exit status.
  int (*run)(const ExperimentOptions& opt, const ExperimentEntry& self);
  // The object schema of its config (its declaration, "name" its own).
  Json (*schema)();
  // The parameters of the config FILE (read and checked as the experiment reads it, no workload loaded).
  ExperimentListing (*list)(const std::string& file);

  std::string shipped_config() const;  // the path of configs/experiments/CONFIG.json
};

const std::vector<ExperimentEntry>& experiment_registry();
// "equalizer, core-shutdown, ...": the names, in the table's order.
std::string experiment_names();
// The entry named NAME; InputError(FILE, PATH) listing the names otherwise.
const ExperimentEntry& find_experiment(const std::string& name, const std::string& file, const std::string& path);

int command_experiment(const ExperimentOptions& opt);  // errors: main's net (bad input: 2)
// For `gpupm validate`: reads FILE as the config of the experiment its "name"
// names (its programs at SCALE); returns that name.
std::string validate_experiment_config(const std::string& file, const std::string& scale = "ci");

// docs/schema/experiment.schema.json: one of the experiments' config schemas.
Json experiment_config_schema();

// The entry points of an experiment type E (runner.h) for the table.
template <class E>
void check_experiment(const ExperimentOptions& opt, const ExperimentEntry& self) {
  E::load(opt, self.shipped_config());
}
template <class E>
int run_experiment_entry(const ExperimentOptions& opt, const ExperimentEntry& self) {
  return run_experiment<E>(opt, self.shipped_config(), self.plot_script, self.print_claims);
}

template <class E>
Json experiment_schema() {
  return schema_of<typename E::Params>();
}
template <class E>
ExperimentListing list_experiment_config(const std::string& file) {
  typename E::Params p = read_experiment_params<typename E::Params>(file);
  ExperimentListing l;
  l.rows = list_params("", p, &l.rules);
  return l;
}

}  // namespace gpupm
