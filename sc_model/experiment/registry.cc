#include "gpupm/experiment/registry.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/experiment/core_shutdown/core_shutdown.h"
#include "gpupm/experiment/equalizer/equalizer.h"
#include "gpupm/experiment/harmonia/harmonia.h"
#include "gpupm/experiment/sm_allocation/sm_allocation.h"
#include "gpupm/experiment/voltage_noise/voltage_noise.h"

namespace gpupm {

std::string ExperimentEntry::shipped_config() const { return data_file("configs/experiments/") + config + ".json"; }

const std::vector<ExperimentEntry>& experiment_registry() {
  static const std::vector<ExperimentEntry> entries = {
      {"equalizer", "equalizer", "plot_equalizer.py", false, check_experiment<Equalizer>,
       run_experiment_entry<Equalizer>, experiment_schema<Equalizer>, list_experiment_config<Equalizer>},
      {"core-shutdown", "core_shutdown", "plot_core_shutdown.py", true, check_experiment<CoreShutdown>,
       run_experiment_entry<CoreShutdown>, experiment_schema<CoreShutdown>, list_experiment_config<CoreShutdown>},
      {"voltage-noise", "voltage_noise", "plot_voltage_noise.py", false, check_experiment<VoltageNoise>,
       run_experiment_entry<VoltageNoise>, experiment_schema<VoltageNoise>, list_experiment_config<VoltageNoise>},
      {"sm-allocation", "sm_allocation", "plot_sm_allocation.py", true, check_experiment<SmAllocation>,
       run_experiment_entry<SmAllocation>, experiment_schema<SmAllocation>, list_experiment_config<SmAllocation>},
      {"harmonia", "harmonia", "plot_harmonia.py", true, check_experiment<Harmonia>, run_experiment_entry<Harmonia>,
       experiment_schema<Harmonia>, list_experiment_config<Harmonia>}};
  return entries;
}

Json experiment_config_schema() {
  Json one_of = Json::array();
  for (const ExperimentEntry& e : experiment_registry()) one_of.push_back(e.schema());
  Json s = {{"oneOf", one_of},
            {"description", "an experiment config (configs/experiments/*.json): the one its \"name\" names"}};
  return schema_document("experiment.schema.json", "gpupm experiment config", s);
}

std::string experiment_names() {
  std::string names;
  for (const ExperimentEntry& e : experiment_registry()) names += (names.empty() ? "" : ", ") + e.name;
  return names;
}

const ExperimentEntry& find_experiment(const std::string& name, const std::string& file, const std::string& path) {
  for (const ExperimentEntry& e : experiment_registry())
    if (e.name == name) return e;
  throw InputError(file, path, "unknown experiment \"" + name + "\"; expected one of {" + experiment_names() + "}");
}

int command_experiment(const ExperimentOptions& opt) {
  check_suite_option(opt.suite);
  const ExperimentEntry& e = find_experiment(opt.name, "gpupm experiment", "NAME");
  return e.run(opt, e);
}

std::string validate_experiment_config(const std::string& file, const std::string& scale) {
  Json doc = load_json_file(file);
  JsonReader r(doc, file, "");
  const std::string name = r.get_string("name");
  ExperimentOptions opt;
  opt.name = name;
  opt.config = file;
  opt.scale = scale;
  const ExperimentEntry& e = find_experiment(name, file, "name");
  e.check(opt, e);
  return name;
}

}  // namespace gpupm
