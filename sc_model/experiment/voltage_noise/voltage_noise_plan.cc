#include "gpupm/experiment/voltage_noise/voltage_noise.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>

namespace gpupm {

const std::vector<std::pair<std::string, std::vector<std::string>>>& voltage_noise_modes() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> modes = {
      {"baseline", {}},
      {"local", {"gpu.smoothing.local.enabled=true"}},
      {"global", {"gpu.smoothing.global.enabled=true"}},
      {"hierarchical", {"gpu.smoothing.local.enabled=true", "gpu.smoothing.global.enabled=true"}}};
  return modes;
}

std::string voltage_noise_run_id(const VoltageNoiseKernel& k, const std::string& mode, const std::string& package) {
  return k.name + "__" + mode + (package.empty() ? "" : "__pkg" + package);
}

double chip_worst_droop(const VoltageNoiseConfig& c, const RunReports& reports, const std::string& mode) {
  double worst = 0;
  for (const VoltageNoiseKernel& k : c.kernels)
    worst = std::max(worst, reports[voltage_noise_run_id(k, mode)].voltage_noise()["worst_droop"].get<double>());
  return worst;
}

Guardband voltage_noise_guardband(const VoltageNoiseConfig& c, const RunReports& reports) {
  Guardband g;
  const Json& sm_dvfs = reports[voltage_noise_run_id(c.kernels.front(), "baseline")].gpu_config()["dvfs"]["sm"];
  for (size_t i = 0; i < sm_dvfs["levels"].size(); ++i)
    if (sm_dvfs["levels"][i]["name"] == sm_dvfs["nominal"]) g.nominal = i;
  g.v_nom = sm_dvfs["levels"][g.nominal]["volts"].get<double>();
  g.v_new = g.v_nom * (1.0 - (chip_worst_droop(c, reports, "baseline") - chip_worst_droop(c, reports, "hierarchical")));
  return g;
}

namespace {

RunSpec spec(const VoltageNoiseConfig& c, const VoltageNoiseKernel& k, const std::string& id, const std::string& pdn,
             const std::vector<std::string>& sets) {
  std::vector<std::string> args = {"--pdn", pdn, "--set", "gpu.pdn.stats.margin=" + std::to_string(c.margin)};
  for (const auto& s : c.gpu_sets) args.insert(args.end(), {"--set", s});
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  return workload_run(id, c.gpu, k.file, args);
}

}  // namespace

std::vector<RunSpec> VoltageNoise::plan(const VoltageNoiseConfig& c, const RunReports& done, size_t stage) {
  std::vector<RunSpec> specs;
  if (stage == 0) {
    for (const VoltageNoiseKernel& k : c.kernels) {
      for (const auto& [mode, sets] : voltage_noise_modes())
        specs.push_back(spec(c, k, voltage_noise_run_id(k, mode), c.pdn, sets));
      for (const VoltageNoisePackage& p : c.packages)
        for (const auto& [mode, sets] : voltage_noise_modes())
          if (mode == "baseline" || mode == "hierarchical")
            specs.push_back(spec(c, k, voltage_noise_run_id(k, mode, p.name), p.pdn, sets));
    }
  } else if (stage == 1 && !c.kernels.empty()) {
    const Guardband g = voltage_noise_guardband(c, done);
    auto sets = voltage_noise_modes().back().second;
    sets.push_back("gpu.dvfs.sm.levels[" + std::to_string(g.nominal) + "].volts=" + fixed(g.v_new, 6));
    sets.push_back("gpu.power.sm_reference_volts=" + fixed(g.v_nom, 6));  // energies stay given at V_nom
    for (const VoltageNoiseKernel& k : c.kernels)
      specs.push_back(spec(c, k, voltage_noise_run_id(k, "hierarchical-lowv"), c.pdn, sets));
  }
  return specs;
}

}  // namespace gpupm
