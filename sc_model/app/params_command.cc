#include "gpupm/app/params_command.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/app/commands.h"
#include "gpupm/common/param_lister.h"
#include "gpupm/common/param_reader.h"
#include "gpupm/experiment/registry.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/sweep/sweep_spec_params.h"
#include "gpupm/workload/workload_params.h"
#include "gpupm/sweep/config_schemas.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/policy/policy_registry.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace gpupm {

namespace {

// A value as JSON; a long one (a description) cut short: the table stays readable, --json has it whole.
std::string value_text(const Json& v) {
  constexpr size_t kWidest = 40;
  std::string s = v.is_null() ? "-" : v.dump();
  return s.size() <= kWidest ? s : s.substr(0, kWidest - 3) + "...";
}

std::string default_text(const ParamRow& r) { return r.required ? "required" : value_text(r.default_value); }

// The listed document under `prefix` after every --set (paths below the prefix only).
Json with_sets(const std::string& prefix, Json listed, const std::vector<std::string>& sets) {
  Json doc = {{prefix, std::move(listed)}};
  for (const std::string& s : sets) apply_override(doc, s, "--set");
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != prefix)
      throw InputError("--set", it.key(), "expected a " + prefix + ".* path (params lists the " + prefix + ")");
  return doc.at(prefix);
}

// A file's origin in messages: the file, "(with --set)" when overrides changed it, as gpupm run says.
std::string origin_of(const std::string& file, const ParamsOptions& opt) {
  return opt.sets.empty() ? file : file + " (with --set)";
}

struct Listing {
  std::vector<ParamRow> rows;
  std::vector<RuleRow> rules;
};

// Reads `doc` into S as its reader does, then lists it under `prefix`.
template <class S>
Listing list_document(const std::string& prefix, const Json& doc, const std::string& origin, S& s) {
  JsonReader r(doc, origin, "");
  read_params(r, s);
  r.finish();
  Listing l;
  l.rows = list_params(prefix, s, &l.rules);
  return l;
}

// A policy's settings for the GPU config (its V/F level names and SM count): their defaults, or with --set
// policy.* the settings read as `gpupm run` reads them (rules checked).
Listing policy_listing(const ParamsOptions& opt) {
  const PolicyEntry* entry = find_registered_policy(opt.policy);
  if (!entry) throw InputError("--policy", opt.policy, "unknown policy; expected one of {" + policy_name_list() + "}");
  const PolicyGpu on = load_policy_gpu(opt.gpu_file, opt.pdn_file);
  const PolicyTarget target = on.target(entry->name);
  Listing l;
  if (!entry->params) return l;  // a policy registered without a declaration
  ParamLister defaults("policy", ParamLister::Pass::kDefaults), values("policy", ParamLister::Pass::kValues);
  entry->params(target, {&defaults});
  if (opt.sets.empty()) {
    entry->params(target, {&values});
  } else {
    const Json doc = with_sets("policy", {{"name", entry->name}}, opt.sets);
    JsonReader r(doc, "--set", "policy");
    if (r.get_string("name") != entry->name) r.fail("name", "expected \"" + entry->name + "\" (the --policy listed)");
    JsonParamReader reader(r);
    entry->params(target, {&reader, &values});
    r.finish();
  }
  values.take_defaults(defaults);
  l.rows = values.rows;
  l.rules = values.rules;
  return l;
}

// An experiment's config, read as the experiment reads it (the shipped one of --suite, or --config).
Listing experiment_listing(const ParamsOptions& opt) {
  check_suite_option(opt.suite);
  const ExperimentEntry& e = find_experiment(opt.experiment, "gpupm params", "--experiment");
  ExperimentOptions eo;
  eo.name = e.name;
  eo.suite = opt.suite;
  eo.config = opt.config_file;
  const ExperimentListing l = e.list(experiment_config_file(eo, e.shipped_config()));
  return {l.rows, l.rules};
}

Listing listed(const ParamsOptions& opt) {
  if (!opt.policy.empty()) return policy_listing(opt);
  if (!opt.experiment.empty()) return experiment_listing(opt);
  if (!opt.workload_file.empty()) {
    const Json doc = with_sets("workload", load_json_file(opt.workload_file), opt.sets);
    if (is_program_workload(doc)) {
      ProgramWorkloadParams p;
      p.dir = std::filesystem::absolute(opt.workload_file).parent_path().string();
      return list_document("workload", doc, origin_of(opt.workload_file, opt), p);
    }
    ProfileWorkloadParams p;
    return list_document("workload", doc, origin_of(opt.workload_file, opt), p);
  }
  if (!opt.sweep_file.empty()) {
    SweepSpecParams p;
    p.dir = std::filesystem::absolute(opt.sweep_file).parent_path().string();
    return list_document("sweep", with_sets("sweep", load_json_file(opt.sweep_file), opt.sets),
                         origin_of(opt.sweep_file, opt), p);
  }
  // The GPU config as `gpupm run` reads it: the file, the --pdn package, then every --set.
  const GpuDocument file_doc = load_gpu_doc(opt.gpu_file, opt.pdn_file);
  const Json doc = with_sets("gpu", file_doc.doc, opt.sets);
  const InputFileScope gpu_file_scope(opt.gpu_file);
  GpuConfig gpu = parse_gpu_config(doc, gpu_doc_origin(file_doc, opt.pdn_file, !opt.sets.empty()));
  Listing l;
  l.rows = list_params("gpu", gpu, &l.rules);
  return l;
}

void print_table(const std::vector<ParamRow>& rows, const std::vector<RuleRow>& rules) {
  std::vector<std::vector<std::string>> cells = {{"path", "type", "value", "default", "range", "unit", "description"}};
  for (const ParamRow& r : rows)
    cells.push_back(
        {r.path, param_kind_name(r.kind), value_text(r.value), default_text(r), r.range, r.unit, r.description});
  std::vector<size_t> width(cells[0].size(), 0);
  for (const auto& line : cells)
    for (size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  for (const auto& line : cells) {
    std::string text;
    for (size_t c = 0; c + 1 < line.size(); ++c) text += line[c] + std::string(width[c] - line[c].size() + 2, ' ');
    std::cout << text << line.back() << "\n";
  }
  std::cout << "\nrules (checked when a config is read):\n";
  for (const RuleRow& r : rules) std::cout << "  " << r.path << ": " << r.description << "\n";
}

Json rows_json(const std::vector<ParamRow>& rows, const std::vector<RuleRow>& rules) {
  Json params = Json::array(), checks = Json::array();
  for (const ParamRow& r : rows)
    params.push_back({{"path", r.path},
                      {"type", param_kind_name(r.kind)},
                      {"value", r.value},
                      {"default", r.default_value},
                      {"required", r.required},
                      {"range", r.range},
                      {"unit", r.unit},
                      {"description", r.description}});
  for (const RuleRow& r : rules) checks.push_back({{"path", r.path}, {"description", r.description}});
  return {{"parameters", params}, {"rules", checks}};
}

}  // namespace

Json input_schema(const std::string& kind) {
  if (kind == "experiment") return experiment_config_schema();
  const std::vector<std::string>& kinds = config_schema_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string allowed;
    for (const std::string& k : kinds) allowed += k + ", ";
    throw InputError("--schema", kind, "expected one of {" + allowed + "experiment}");
  }
  return config_schema(kind);
}

CLI::App* add_params_command(CLI::App& app, ParamsOptions& opt) {
  auto* cmd = app.add_subcommand(
      "params",
      "list the parameters of a GPU config, workload, sweep spec, policy or experiment config: value, default, range, "
      "unit, description");
  cmd->add_option("--gpu", opt.gpu_file, "GPU config (JSON)")->default_val(data_file("configs/gpu/gtx480.json"));
  cmd->add_option("--pdn", opt.pdn_file,
                  "a PDN package (configs/pdn/*.json) merged into the GPU config, as gpupm run --pdn");
  auto* workload =
      cmd->add_option("--workload", opt.workload_file, "list a workload (JSON: kernel profiles or a program) instead");
  auto* sweep = cmd->add_option("--sweep", opt.sweep_file, "list a sweep spec (JSON) instead")->excludes(workload);
  auto* policy = cmd->add_option("--policy", opt.policy,
                                 "list a policy's settings (policy.*) instead, for the GPU config (its V/F levels, "
                                 "its SM count)")
                     ->excludes(workload)
                     ->excludes(sweep);
  auto* experiment = cmd->add_option("--experiment", opt.experiment,
                                     "list an experiment's config instead (" + experiment_names() + ")")
                         ->excludes(workload)
                         ->excludes(sweep)
                         ->excludes(policy);
  cmd->add_option("--suite", opt.suite, "--experiment's suite: synthetic (default) or real")->needs(experiment);
  cmd->add_option("--config", opt.config_file, "--experiment: list this config file instead of the shipped one")
      ->needs(experiment);
  cmd->add_option("--set", opt.sets,
                  "override gpu.PATH=VALUE (workload.PATH, sweep.PATH, policy.PATH), as gpupm run --set");
  cmd->add_flag("--json", opt.json, "print JSON instead of a table");
  cmd->add_option("--schema", opt.schema_kind,
                  "print the JSON Schema of KIND instead: gpu_config, workload, sweep_spec, policy, experiment");
  return cmd;
}

int command_params(const ParamsOptions& opt) {
  if (!opt.schema_kind.empty()) {
    std::cout << input_schema(opt.schema_kind).dump(2) << "\n";
    return kExitOk;
  }
  const Listing l = listed(opt);
  if (!opt.policy.empty() && l.rows.empty() && !opt.json) {
    std::cout << "policy \"" << opt.policy << "\" declares no settings\n";
    return kExitOk;
  }
  if (opt.json) std::cout << rows_json(l.rows, l.rules).dump(2) << "\n";
  else print_table(l.rows, l.rules);
  return kExitOk;
}

}  // namespace gpupm
