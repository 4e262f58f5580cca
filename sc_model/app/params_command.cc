#include "app/params_command.h"
#include "common/data_dir.h"

#include "app/commands.h"
#include "common/param_lister.h"
#include "sweep/config_schemas.h"
#include "platform/run_setup.h"

#include <algorithm>
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

// The GPU config as `gpupm run` reads it: the file, then every --set (gpu.* paths).
GpuConfig load_listed_config(const ParamsOptions& opt) {
  Json doc = {{"gpu", load_gpu_doc(opt.gpu_file, "")}};
  for (const std::string& s : opt.sets) apply_override(doc, s, "--set");
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "gpu") throw InputError("--set", it.key(), "expected a gpu.* path (params lists the GPU config)");
  const InputFileScope gpu_file_scope(opt.gpu_file);
  return parse_gpu_config(doc.at("gpu"), gpu_doc_origin(opt.gpu_file, "", !opt.sets.empty()));
}

void print_table(const std::vector<ParamRow>& rows, const std::vector<RuleRow>& rules) {
  std::vector<std::vector<std::string>> cells = {{"path", "type", "value", "default", "range", "unit", "description"}};
  for (const ParamRow& r : rows)
    cells.push_back({r.path, param_kind_name(r.kind), value_text(r.value), default_text(r), r.range, r.unit,
                     r.description});
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
    params.push_back({{"path", r.path}, {"type", param_kind_name(r.kind)}, {"value", r.value},
                      {"default", r.default_value}, {"required", r.required}, {"range", r.range}, {"unit", r.unit},
                      {"description", r.description}});
  for (const RuleRow& r : rules) checks.push_back({{"path", r.path}, {"description", r.description}});
  return {{"parameters", params}, {"rules", checks}};
}

}  // namespace

CLI::App* add_params_command(CLI::App& app, ParamsOptions& opt) {
  auto* cmd = app.add_subcommand("params", "list the GPU config's parameters: value, default, range, unit, description");
  cmd->add_option("--gpu", opt.gpu_file, "GPU config (JSON)")
      ->default_val(data_file("configs/gpu/gtx480.json"));
  cmd->add_option("--set", opt.sets, "override gpu.PATH=VALUE (as gpupm run --set)");
  cmd->add_flag("--json", opt.json, "print JSON instead of a table");
  cmd->add_option("--schema", opt.schema_kind, "print the JSON Schema of KIND instead: gpu_config, workload, sweep_spec");
  return cmd;
}

int command_params(const ParamsOptions& opt) {
  if (!opt.schema_kind.empty()) {
    std::cout << config_schema(opt.schema_kind).dump(2) << "\n";
    return kExitOk;
  }
  GpuConfig gpu = load_listed_config(opt);
  std::vector<RuleRow> rules;
  std::vector<ParamRow> rows = list_params("gpu", gpu, &rules);
  if (opt.json)
    std::cout << rows_json(rows, rules).dump(2) << "\n";
  else
    print_table(rows, rules);
  return kExitOk;
}

}  // namespace gpupm
