// `gpupm params`: every declared parameter (common/param.h) of a GPU config
// (with a --pdn package merged in, as `gpupm run --pdn`), or of a kernel-profile
// workload (--workload), a sweep spec (--sweep), a policy's settings (--policy,
// for the GPU config: its V/F level names, its SM count) or an experiment config
// (--experiment NAME [--suite real] [--config FILE]), with its value, default,
// range, unit and description; or, with --schema KIND, the JSON Schema of a
// kind of input (docs/schema/KIND.schema.json).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace gpupm {

struct ParamsOptions {
  std::string gpu_file;
  std::string pdn_file;           // a PDN package merged into the GPU config
  std::string workload_file;      // list this workload instead of the GPU config
  std::string sweep_file;         // list this sweep spec instead
  std::string policy;             // list this policy's settings (policy.*) instead
  std::vector<std::string> sets;  // gpu.PATH=VALUE (workload.PATH, sweep.PATH, policy.PATH), as `gpupm run --set`
  std::string experiment;         // list this experiment's config instead
  std::string suite;              // --experiment's suite: synthetic (default) or real
  std::string config_file;        // --experiment: this config instead of the shipped one
  bool json = false;
  std::string schema_kind;  // gpu_config, workload, sweep_spec, policy or experiment: print its schema instead
};

// Adds the subcommand to app; dispatch on the returned subcommand's parsed().
CLI::App* add_params_command(CLI::App& app, ParamsOptions& opt);
int command_params(const ParamsOptions& opt);
// The schema document of every kind of input: gpu_config, workload, sweep_spec, experiment (InputError naming --schema
// else).
nlohmann::json input_schema(const std::string& kind);

}  // namespace gpupm
