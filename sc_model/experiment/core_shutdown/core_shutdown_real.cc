#include "gpupm/experiment/core_shutdown/core_shutdown_real.h"

#include "gpupm/experiment/core_shutdown/core_shutdown_analysis.h"
#include "gpupm/experiment/kernel_interval.h"

#include <algorithm>
#include <map>

namespace gpupm {

namespace {

// Per kernel: its time share and baseline MBU; the program's paper class from them.
std::string memory_class(const CoreShutdownConfig& c, const CoreShutdownApp& a, const RunReports& reports, Json& out) {
  const Json& base = reports.document(core_shutdown_run_id(a, "baseline"));
  const double program_time = IntervalView(field_or_null(base, report_key::kTotal)).sim_time_s();
  int counted = 0, memory = 0;
  out["kernels"] = Json::object();
  for (const std::string& k : a.kernels) {
    const Json interval = kernel_interval(base, k);
    if (interval.is_null()) continue;
    const IntervalView v(interval);
    const double share = v.sim_time_s() / program_time, mbu = v.dram_utilisation();
    const bool counts = share >= c.classification.kernel_share_min, mem = mbu > c.classification.mbu_min;
    counted += counts;
    memory += counts && mem;
    out["kernels"][k] = {{"time_share", share}, {"mbu", mbu}, {"memory_intensive", mem}, {"counted", counts}};
  }
  return memory == 0 ? "COMP" : memory == counted ? "MEM" : "MEM-COMP";
}

// The program's fastest static SM count against all SMs (the baseline), from the first pass's oracle-sm sweep.
bool cache_thrash(const CoreShutdownConfig& c, const Json& app, Json& out) {
  const Json& sweep = app["oracles"].contains("oracle-sm") ? app["oracles"]["oracle-sm"]["sweep"] : Json::array();
  if (sweep.empty()) return false;
  const Json* best = &sweep.front();
  for (const Json& p : sweep)
    if (p["time_s"].get<double>() < (*best)["time_s"].get<double>()) best = &p;
  const double gain = app["baseline"]["time_s"].get<double>() / (*best)["time_s"].get<double>();
  const bool l2_up = (*best)["l2_hit_rate"].get<double>() > app["baseline"]["l2_hit_rate"].get<double>();
  out["static_best"] = {{"point", (*best)["point"]},
                        {"gain", gain},
                        {"l2_hit_rate", (*best)["l2_hit_rate"]},
                        {"baseline_l2_hit_rate", app["baseline"]["l2_hit_rate"]}};
  return gain >= c.classification.thrash_gain_min && l2_up;
}

// Whether some kernel's launches long enough for the policy's sampling have
// static knees spanning phase_knee_span SMs.
bool phase_changing(const CoreShutdownConfig& c, const Json& app, Json& out) {
  std::map<std::string, std::pair<int, int>> span;  // kernel: lowest, highest knee
  for (const Json& l : app["core_shutdown_launches"]) {
    if (!l.contains("knee_sms") || l["windows"].get<uint32_t>() < c.classification.phase_min_windows) continue;
    const int knee = l["knee_sms"].get<int>();
    auto [it, fresh] = span.insert({l["kernel"].get<std::string>(), {knee, knee}});
    it->second = {std::min(it->second.first, knee), std::max(it->second.second, knee)};
  }
  bool phase = false;
  out["knee_span"] = Json::object();
  for (const auto& [k, lo_hi] : span) {
    out["knee_span"][k] = {lo_hi.first, lo_hi.second};
    phase |= uint32_t(lo_hi.second - lo_hi.first) >= c.classification.phase_knee_span;
  }
  return phase;
}

}  // namespace

MeasuredClasses measure_core_shutdown_classes(const CoreShutdownConfig& c, const RunReports& reports) {
  MeasuredClasses m;
  m.config = c;
  for (CoreShutdownApp& a : m.config.apps) a.memory = true;  // the first pass reads every search
  const CoreShutdownAnalysis first(m.config, reports);
  for (CoreShutdownApp& a : m.config.apps) {
    Json& out = m.programs[a.name] = Json::object();
    a.cls = memory_class(c, a, reports, out);
    a.memory = a.cls != "COMP";
    if (a.memory && cache_thrash(c, first.apps[a.name], out)) a.cls += " + K-CACHE-thrash";
    if (phase_changing(c, first.apps[a.name], out)) a.cls += " + K-PHASE";
    out["class"] = a.cls;
    out["memory_intensive"] = a.memory;
  }
  return m;
}

}  // namespace gpupm
