#include "gpupm/experiment/voltage_noise/voltage_noise_analysis.h"

#include "gpupm/experiment/format_stats.h"

#include <algorithm>
#include <cmath>

namespace gpupm {

std::string measured_droop_class(const Json& split) {
  double f = split.value("first_order", 0.0), s = split.value("second_order", 0.0), b = split.value("balanced", 0.0);
  double n = f + s + b;
  if (n == 0) return "-";
  return f >= 0.6 * n ? "first_order" : s >= 0.6 * n ? "second_order" : "balanced";
}

VoltageNoiseAnalysis::VoltageNoiseAnalysis(const VoltageNoiseConfig& c, const RunReports& r) : config(c), reports(r) {
  for (const VoltageNoiseKernel& k : c.kernels) add_kernel(k);
  // Stage 1 ran the hierarchical design at the lowered supply for every kernel.
  if (!c.kernels.empty() && r.has(voltage_noise_run_id(c.kernels.front(), "hierarchical-lowv"))) add_lowered_supply();
  add_packages();
}

void VoltageNoiseAnalysis::add_kernel(const VoltageNoiseKernel& k) {
  const std::string b = voltage_noise_run_id(k, "baseline");
  const double worst_b = noise(b)["worst_droop"].get<double>();
  Json j = {{"paper_class", k.paper_class}, {"measured_class", measured_droop_class(noise(b)["split"])}};
  for (const auto& [mode, sets] : voltage_noise_modes()) {
    const std::string id = voltage_noise_run_id(k, mode);
    const Json& n = noise(id);
    double w = n["worst_droop"].get<double>(), dr = w / worst_b, tr = reports.time(id) / reports.time(b);
    double e = n["emergencies"].get<double>();
    j[mode] = {{"worst_droop", w}, {"droop_ratio", dr},   {"time_ratio", tr},
               {"emergencies", e}, {"split", n["split"]}, {"smoothing", n.value("smoothing", Json::object())}};
    droop_ratio[mode].push_back(dr);
    time_ratio[mode].push_back(tr);
    emergencies[mode] += e;
    chip_worst[mode] = std::max(chip_worst[mode], w);
    ratio_by_class[j["measured_class"].get<std::string>() + ":" + mode].push_back(dr);
  }
  kernels[k.name] = j;
}

namespace {
double domain_energy(const RunReports& reports, const std::string& id, bool processor) {
  const IntervalView t = reports[id].total();
  return t.energy_of_domain("sm") + (processor ? t.energy_of_domain("mem") : 0.0);
}
}  // namespace

void VoltageNoiseAnalysis::add_lowered_supply() {
  guardband = voltage_noise_guardband(config, reports);
  std::vector<double> core, proc, slow;
  for (const VoltageNoiseKernel& k : config.kernels) {
    const std::string b = voltage_noise_run_id(k, "baseline"), l = voltage_noise_run_id(k, "hierarchical-lowv");
    core.push_back(domain_energy(reports, l, false) / domain_energy(reports, b, false));
    proc.push_back(domain_energy(reports, l, true) / domain_energy(reports, b, true));
    slow.push_back(reports.time(l) / reports.time(b));
    kernels[k.name]["hierarchical-lowv"] = {
        {"core_energy_ratio", core.back()}, {"processor_energy_ratio", proc.back()}, {"time_ratio", slow.back()}};
  }
  double core_mean = 0, processor_mean = 0;
  for (size_t i = 0; i < core.size(); ++i)
    core_mean += core[i] / double(core.size()), processor_mean += proc[i] / double(proc.size());
  energy = {{"v_nominal", guardband.v_nom},
            {"v_new", guardband.v_new},
            {"worst_baseline", chip_worst["baseline"]},
            {"worst_hierarchical", chip_worst["hierarchical"]},
            {"core_energy_saving_mean", 1.0 - core_mean},
            {"processor_energy_saving_mean", 1.0 - processor_mean},
            {"time_ratio_geomean", geomean(slow)}};
}

void VoltageNoiseAnalysis::add_packages() {
  for (const VoltageNoisePackage& p : config.packages) {
    std::vector<double> ratios;
    double worst_baseline = 0, worst_hierarchical = 0;
    for (const VoltageNoiseKernel& k : config.kernels) {
      double baseline = noise(voltage_noise_run_id(k, "baseline", p.name))["worst_droop"].get<double>();
      double hierarchical = noise(voltage_noise_run_id(k, "hierarchical", p.name))["worst_droop"].get<double>();
      ratios.push_back(hierarchical / baseline);
      worst_baseline = std::max(worst_baseline, baseline),
      worst_hierarchical = std::max(worst_hierarchical, hierarchical);
    }
    packages[p.name] = {{"worst_baseline", worst_baseline},
                        {"worst_hierarchical", worst_hierarchical},
                        {"worst_case_reduction", worst_baseline > 0 ? 1.0 - worst_hierarchical / worst_baseline : 0.0},
                        {"mean_reduction", 1.0 - geomean(ratios)}};
  }
}

double VoltageNoiseAnalysis::reduction(const std::string& mode) const {
  return 1.0 - geomean(values_at(droop_ratio, mode));
}
double VoltageNoiseAnalysis::slowdown(const std::string& mode) const {
  return geomean(values_at(time_ratio, mode)) - 1.0;
}
double VoltageNoiseAnalysis::class_reduction(const std::string& cls, const std::string& mode) const {
  auto it = ratio_by_class.find(cls + ":" + mode);
  return it == ratio_by_class.end() ? std::nan("") : 1.0 - geomean(it->second);
}

}  // namespace gpupm
