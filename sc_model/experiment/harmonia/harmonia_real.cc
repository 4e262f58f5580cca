#include "gpupm/experiment/harmonia/harmonia_real.h"

#include "gpupm/experiment/kernel_interval.h"
#include "gpupm/policy/harmonia/harmonia_model.h"

#include <algorithm>

namespace gpupm {

namespace {

// The kernels (.entry names) of a program run's report, in their first launch's order.
std::vector<std::string> kernels_of(const ReportView& run) {
  std::vector<std::string> names;
  for (const Json& l : run.kernels()) {
    const std::string k = l[report_key::kLaunchKernel].get<std::string>();
    if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
  }
  return names;
}

bool same_point(const PointValues& a, const PointValues& b) {
  return a.cus == b.cus && a.sm_mhz == b.sm_mhz && a.mem_mhz == b.mem_mhz;
}

// The static grid's points as CU counts and clocks, and the sensitivities' reference points.
struct Grid {
  std::vector<PointValues> values;
  PointValues top;
  int at_top = -1, compute_low = -1, memory_low = -1;  // grid indices, -1: not in the grid

  explicit Grid(const HarmoniaConfig& c) : top(values_of(c, {})) {
    for (const OraclePoint& p : c.oracle.points()) values.push_back(values_of(c, p));
    double best_compute = 0, best_memory = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      const PointValues& v = values[i];
      const double compute = v.cus * v.sm_mhz;
      if (same_point(v, top)) at_top = int(i);
      // The largest step below the top of one side (CU count x CU clock, or the memory clock), the other at its top.
      if (v.mem_mhz == top.mem_mhz && compute < top.cus * top.sm_mhz && compute > best_compute)
        best_compute = compute, compute_low = int(i);
      if (v.cus == top.cus && v.sm_mhz == top.sm_mhz && v.mem_mhz < top.mem_mhz && v.mem_mhz > best_memory)
        best_memory = v.mem_mhz, memory_low = int(i);
    }
  }
};

// KERNEL's time in the grid run at index I (its launches added up).
double grid_time(const HarmoniaConfig& c, const HarmoniaApp& a, const RunReports& reports, size_t i,
                 const std::string& kernel) {
  const std::string id = harmonia_run_id(a, point_run_name(c.oracle, c.oracle.points()[i]));
  return IntervalView(kernel_interval(reports.document(id), kernel)).sim_time_s();
}

// The grid's compute and bandwidth sensitivities of KERNEL (null without the reference points).
Json grid_sensitivity(const HarmoniaConfig& c, const Grid& g, const HarmoniaApp& a, const RunReports& reports,
                      const std::string& kernel) {
  if (g.at_top < 0 || g.compute_low < 0 || g.memory_low < 0) return Json();
  const double top = grid_time(c, a, reports, size_t(g.at_top), kernel);
  const PointValues &lc = g.values[size_t(g.compute_low)], &lm = g.values[size_t(g.memory_low)];
  const double comp = measured_sensitivity(top, grid_time(c, a, reports, size_t(g.compute_low), kernel),
                                           g.top.cus * g.top.sm_mhz, lc.cus * lc.sm_mhz);
  const double bw =
      measured_sensitivity(top, grid_time(c, a, reports, size_t(g.memory_low), kernel), g.top.mem_mhz, lm.mem_mhz);
  return {{"comp", comp},
          {"bw", bw},
          {"comp_bin", bin_name(sensitivity_bin(comp))},
          {"bw_bin", bin_name(sensitivity_bin(bw))}};
}

// Table 3's predictions for KERNEL's launches at the top configuration in the
// Harmonia run's TRACE, each clamped to [0, 1] as the policy does, averaged.
Json predicted_sensitivity(const Json& trace, const std::string& kernel, const PointValues& top) {
  double bw = 0, comp = 0;
  int n = 0;
  for (const Json& e : trace) {
    const Json& ran = e["ran"];
    const PointValues at{ran["cus"].get<double>(), ran["sm_mhz"].get<double>(), ran["mem_mhz"].get<double>()};
    if (e["kernel"] != kernel || !same_point(at, top)) continue;
    bw += std::clamp(e["s_bw"].get<double>(), 0.0, 1.0);
    comp += std::clamp(e["s_comp"].get<double>(), 0.0, 1.0);
    ++n;
  }
  if (n == 0) return Json();
  bw /= n, comp /= n;
  return {{"comp", comp},
          {"bw", bw},
          {"comp_bin", bin_name(sensitivity_bin(comp))},
          {"bw_bin", bin_name(sensitivity_bin(bw))},
          {"launches", n}};
}

// The grid's time at all CUs over the best with fewer, both at the top clocks (1 without such points).
double thrash_gain(const HarmoniaConfig& c, const Grid& g, const HarmoniaApp& a, const RunReports& reports) {
  if (g.at_top < 0) return 1.0;
  auto time = [&](size_t i) {
    return reports.time(harmonia_run_id(a, point_run_name(c.oracle, c.oracle.points()[i])));
  };
  double fewer = 0;
  for (size_t i = 0; i < g.values.size(); ++i) {
    const PointValues& v = g.values[i];
    if (v.cus < g.top.cus && v.sm_mhz == g.top.sm_mhz && v.mem_mhz == g.top.mem_mhz)
      fewer = fewer > 0 ? std::min(fewer, time(i)) : time(i);
  }
  return fewer > 0 ? time(size_t(g.at_top)) / fewer : 1.0;
}

Json measure_program(const HarmoniaConfig& c, const Grid& g, const HarmoniaApp& a, const RunReports& reports) {
  const ReportView base = reports[harmonia_run_id(a, "baseline")];
  const Json& trace = reports[harmonia_run_id(a, c.variants.front().name)].policy_trace();
  Json kernels = Json::object();
  std::string longest;
  double longest_share = -1;
  for (const std::string& k : kernels_of(base)) {
    const double share =
        IntervalView(kernel_interval(reports.document(harmonia_run_id(a, "baseline")), k)).sim_time_s() /
        base.sim_time_s();
    Json predicted = predicted_sensitivity(trace, k, g.top);
    kernels[k] = {{"time_share", share}, {"predicted", predicted}, {"grid", grid_sensitivity(c, g, a, reports, k)}};
    if (!predicted.is_null())
      kernels[k]["category"] = "compute " + predicted["comp_bin"].get<std::string>() + " / bandwidth " +
                               predicted["bw_bin"].get<std::string>();
    if (share > longest_share && !predicted.is_null()) longest = k, longest_share = share;
  }
  const double gain = thrash_gain(c, g, a, reports);
  const bool thrash = gain >= c.thrash_gain_min;
  const std::string cls = longest.empty() ? std::string("-")
                                          : harmonia_measured_class(kernels[longest]["predicted"]["comp_bin"],
                                                                    kernels[longest]["predicted"]["bw_bin"], thrash);
  return {{"kernels", kernels}, {"longest_kernel", longest}, {"thrash_gain", gain}, {"class", cls}};
}

}  // namespace

std::string harmonia_measured_class(const std::string& comp_bin, const std::string& bw_bin, bool thrash) {
  std::string cls = comp_bin == "HIGH" && bw_bin == "LOW"    ? "H-COMP"
                    : bw_bin == "HIGH" && comp_bin != "HIGH" ? "H-STREAM"
                    : comp_bin != "LOW" && bw_bin != "LOW"   ? "H-MIXED"
                                                             : "H-LATENCY";
  return thrash ? cls + " + THRASH" : cls;
}

double measured_sensitivity(double time_top, double time_low, double value_top, double value_low) {
  if (time_low <= 0 || value_top <= 0 || value_low >= value_top) return 0.0;
  return (1.0 - time_top / time_low) / (1.0 - value_low / value_top);
}

Json measure_harmonia_programs(const HarmoniaConfig& c, const RunReports& reports) {
  const Grid g(c);
  Json programs = Json::object();
  for (const HarmoniaApp& a : c.apps) programs[a.name] = measure_program(c, g, a, reports);
  return programs;
}

HarmoniaConfig with_measured_classes(const HarmoniaConfig& c, const Json& measured) {
  HarmoniaConfig out = c;
  for (HarmoniaApp& a : out.apps) a.cls = measured[a.name]["class"].get<std::string>();
  return out;
}

}  // namespace gpupm
