// Transitional: the experiments not yet moved into sc_model/experiment/<name>/
// (their code is in sc_model/app/*_experiment.cc, linked into the gpupm binary).
#pragma once

#include "experiment/runner.h"

namespace gpupm {

struct ExperimentEntry;

void check_equalizer_config(const ExperimentOptions& opt);
void check_core_shutdown_config(const ExperimentOptions& opt);
void check_voltage_noise_config(const ExperimentOptions& opt);
void check_sm_allocation_config(const ExperimentOptions& opt);
void check_harmonia_config(const ExperimentOptions& opt);
int run_equalizer_experiment(const ExperimentOptions& opt);
int run_core_shutdown_experiment(const ExperimentOptions& opt);
int run_voltage_noise_experiment(const ExperimentOptions& opt);
int run_sm_allocation_experiment(const ExperimentOptions& opt);
int run_harmonia_experiment(const ExperimentOptions& opt);

template <void (*check)(const ExperimentOptions&)>
void legacy_check(const ExperimentOptions& opt, const ExperimentEntry&) {
  check(opt);
}
template <int (*run)(const ExperimentOptions&)>
int legacy_run(const ExperimentOptions& opt, const ExperimentEntry&) {
  return run(opt);
}

}  // namespace gpupm
