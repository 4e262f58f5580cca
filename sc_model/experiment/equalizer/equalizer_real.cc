#include "gpupm/experiment/equalizer/equalizer_real.h"
#include "gpupm/experiment/kernel_interval.h"

#include <algorithm>

namespace gpupm {

namespace {

// A program run's report cut down to KERNEL's launches (null stays null).
Json kernel_report(const Json& report, const std::string& kernel) {
  if (!report.is_object()) return Json();
  Json launches = Json::array();
  for (const Json* l : launches_of(report, kernel)) launches.push_back(*l);
  return {{report_key::kConfig, field_or_null(report, report_key::kConfig)},
          {report_key::kKernels, launches},
          {report_key::kTotal, kernel_interval(report, kernel)},
          {report_key::kPolicyTrace, kernel_trace(report, kernel)}};
}

// The runs of PROGRAM among the reports: what follows "PROGRAM__" in their ids.
std::vector<std::string> runs_of(const EqualizerKernel& program, const RunReports& reports) {
  const std::string prefix = equalizer_run_id(program, "");
  std::vector<std::string> runs;
  for (const std::string& id : reports.ids())
    if (id.rfind(prefix, 0) == 0) runs.push_back(id.substr(prefix.size()));
  return runs;
}

// The baseline time of kernel K over its fastest static CTA count's (1 when the sweep is missing).
double cta_gain(const EqualizerKernel& k, const RunReports& reports) {
  const std::string at_max = equalizer_run_id(k, "ctas" + std::to_string(k.max_ctas));
  if (!reports.has(at_max)) return 1.0;
  double fastest = reports.time(at_max);
  for (uint32_t n = 1; n < k.max_ctas; ++n)
    fastest = std::min(fastest, reports.time(equalizer_run_id(k, "ctas" + std::to_string(n))));
  return reports.time(at_max) / fastest;
}

}  // namespace

std::string paper_category(double x_alu, double x_mem, uint32_t w_cta, double cache_gain, double cache_gain_min) {
  const bool memory = x_mem > w_cta || (x_alu <= w_cta && x_mem > 2);
  if (memory) return cache_gain >= cache_gain_min ? "cache" : "memory";
  return x_alu > w_cta ? "compute" : "unsaturated";
}

Json kernel_trace(const Json& report, const std::string& kernel) {
  const Json& trace = field_or_null(report, report_key::kPolicyTrace);
  const Json& all = field_or_null(report, report_key::kKernels);
  if (!trace.is_array() || !all.is_array()) return trace;
  Json out = Json::array();
  double launch_end = 0;  // SM cycles since the run's start
  size_t e = 0;
  for (const Json& launch : all) {
    launch_end += IntervalView(launch).sm_cycles();
    const bool ours = field_or_null(launch, report_key::kLaunchKernel) == kernel;
    for (bool first = true; e < trace.size() && trace[e]["cycle"].get<double>() < launch_end; ++e, first = false) {
      if (!ours) continue;
      out.push_back(trace[e]);
      if (first) out.back()[kLaunchStart] = true;
    }
  }
  return out;
}

ProgramKernels split_program_kernels(const EqualizerConfig& programs, const RunReports& reports) {
  ProgramKernels out;
  out.config = programs;
  out.config.kernels.clear();
  const EqualizerClassification& rule = programs.classification;
  for (const EqualizerKernel& p : programs.kernels) {
    const double program_time = reports.time(equalizer_run_id(p, "baseline"));
    Json& measured = out.measured[p.name] = Json::object();
    for (const EqualizerProgramKernel& pk : p.program_kernels) {
      EqualizerKernel k;
      k.name = pk.paper_id.empty() ? p.name + ":" + pk.kernel : pk.paper_id;
      k.file = p.file;
      k.w_cta = pk.w_cta;
      k.max_ctas = pk.max_ctas;
      for (const std::string& run : runs_of(p, reports))
        out.reports.add(equalizer_run_id(k, run), kernel_report(reports.document(equalizer_run_id(p, run)), pk.kernel));
      const ReportView baseline = out.reports[equalizer_run_id(k, "baseline")];
      k.launches = uint32_t(baseline.kernel_count());
      k.fraction = baseline.sim_time_s() / program_time;
      const double x_alu = baseline.total().warp_state("excess_alu"), x_mem = baseline.total().warp_state("excess_mem");
      const double gain = cta_gain(k, out.reports);
      k.category = paper_category(x_alu, x_mem, k.w_cta, gain, rule.cache_gain_min);
      const bool kept = k.fraction >= rule.kernel_share_min;
      measured[pk.kernel] = {{"time_share", k.fraction}, {"w_cta", k.w_cta},      {"x_alu", x_alu},
                             {"x_mem", x_mem},           {"cta_gain", gain},      {"category", k.category},
                             {"analysed", kept},         {"summary_name", k.name}};
      if (kept) out.config.kernels.push_back(k);
    }
  }
  return out;
}

std::vector<RunSpec> plan_cache_runs(const EqualizerConfig& programs, const RunReports& reports) {
  const ProgramKernels split = split_program_kernels(programs, reports);
  std::vector<RunSpec> specs;
  for (const EqualizerKernel& p : programs.kernels) {
    const Json& kernels = split.measured[p.name];
    auto cache = [](const Json& k) {
      return k["analysed"].get<bool>() &&
             (k["category"] == "cache" || k["summary_name"] == "spmv-1" || k["summary_name"] == "bfs-1");
    };
    if (std::any_of(kernels.begin(), kernels.end(), cache)) add_cta_control_runs(specs, programs, p);
  }
  return specs;
}

}  // namespace gpupm
