#include "gpupm/experiment/equalizer/equalizer_analysis.h"
#include "gpupm/experiment/equalizer/equalizer_real.h"

#include "gpupm/experiment/format_stats.h"

#include <cstdlib>

namespace gpupm {

namespace {
std::string ctas(uint32_t n) { return "ctas" + std::to_string(n); }
}  // namespace

EqualizerAnalysis::EqualizerAnalysis(const EqualizerConfig& c, const RunReports& r) : config(c), reports(r) {
  for (const EqualizerKernel& k : c.kernels) add_kernel(k);
  for (const std::string& id : r.ids()) {
    const ReportView run = r[id];
    lockstep_runs += run.policy_name().rfind("equalizer", 0) == 0 && run.controller_impl() == "lockstep";
  }
}

double EqualizerAnalysis::time(const EqualizerKernel& k, const std::string& run) const {
  return reports.time(equalizer_run_id(k, run));
}
double EqualizerAnalysis::speedup(const EqualizerKernel& k, const std::string& run) const {
  return time(k, "baseline") / time(k, run);
}
double EqualizerAnalysis::energy_ratio(const EqualizerKernel& k, const std::string& run) const {
  return reports.energy(equalizer_run_id(k, run)) / reports.energy(equalizer_run_id(k, "baseline"));
}
IntervalView EqualizerAnalysis::total(const EqualizerKernel& k, const std::string& run) const {
  return reports[equalizer_run_id(k, run)].total();
}
double EqualizerAnalysis::warp_state(const EqualizerKernel& k, const char* state) const {
  return total(k, "baseline").warp_state(state);
}
double EqualizerAnalysis::residency(const EqualizerKernel& k, const std::string& run, const char* domain,
                                    const char* level) const {
  return total(k, run).residency(domain, level);
}
const Json& EqualizerAnalysis::trace(const EqualizerKernel& k, const std::string& run) const {
  return reports[equalizer_run_id(k, run)].policy_trace();
}

std::string EqualizerAnalysis::static_best(const EqualizerKernel& k) const {
  std::string best = "baseline";
  for (const char* p : {"sm-low", "mem-low"})
    if (speedup(k, p) >= 0.95 && energy_ratio(k, p) < (best == "baseline" ? 1.0 : energy_ratio(k, best))) best = p;
  return best;
}

int EqualizerAnalysis::best_ctas(const EqualizerKernel& k) const {
  int best = 1;
  for (uint32_t n = 1; n <= k.max_ctas; ++n)
    if (time(k, ctas(n)) < time(k, ctas(uint32_t(best)))) best = int(n);
  return best;
}

double EqualizerAnalysis::per_invocation_optimum(const EqualizerKernel& k, std::set<int>* bests) const {
  size_t n = reports[equalizer_run_id(k, ctas(1))].kernel_count();
  double opt = 0;
  for (size_t i = 0; i < n; ++i) {
    double best = 1e9;
    int arg = 0;
    for (uint32_t m = 1; m <= k.max_ctas; ++m) {
      double t = reports[equalizer_run_id(k, ctas(m))].kernel(i).sim_time_s();
      if (t < best) best = t, arg = int(m);
    }
    opt += best;
    if (bests) bests->insert(arg);
  }
  return opt;
}

const EqualizerKernel* EqualizerAnalysis::find(const std::string& name) const {
  for (const EqualizerKernel& k : config.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

void EqualizerAnalysis::add_kernel(const EqualizerKernel& k) {
  Json s = Json::object(), e = Json::object(), r = Json::object();
  for (const auto& p : equalizer_policies()) {
    s[p] = speedup(k, p);
    e[p] = energy_ratio(k, p);
    r[p] = total(k, p).field(report_key::kVfResidency);
  }
  std::string sb = static_best(k);
  s["static-best"] = speedup(k, sb);
  e["static-best"] = energy_ratio(k, sb);
  Json sweep = Json::object();
  for (uint32_t n = 1; n <= k.max_ctas; ++n) sweep[std::to_string(n)] = time(k, ctas(n));
  const IntervalView b = total(k, "baseline");
  kernels[k.name] = {{"category", k.category},
                     {"w_cta", k.w_cta},
                     {"max_ctas", k.max_ctas},
                     {"baseline",
                      {{"time_s", b.field(report_key::kSimTime)},
                       {"energy_j", b.field(report_key::kEnergy)[report_key::kEnergyTotal]},
                       {"warp_states", b.field(report_key::kWarpStates)},
                       {"l1_hit_rate", b.field(report_key::kL1HitRate)}}},
                     {"speedup", s},
                     {"energy", e},
                     {"static_best_energy_mode", sb},
                     {"vf_residency", r},
                     {"cta_sweep_time_s", sweep},
                     {"best_static_ctas", best_ctas(k)}};
  for (const std::string& cat : {k.category, std::string("all")}) {
    for (auto it = s.begin(); it != s.end(); ++it) speed[cat][it.key()].push_back(it.value().get<double>());
    for (auto it = e.begin(); it != e.end(); ++it) energy[cat][it.key()].push_back(it.value().get<double>());
  }
}

namespace {
const std::vector<double>& values(const std::map<std::string, std::map<std::string, std::vector<double>>>& m,
                                  const std::string& cat, const std::string& policy) {
  static const std::map<std::string, std::vector<double>> no_policies;
  auto c = m.find(cat);
  return values_at(c == m.end() ? no_policies : c->second, policy);
}
}  // namespace

double EqualizerAnalysis::geomean_speedup(const std::string& cat, const std::string& policy) const {
  return geomean(values(speed, cat, policy));
}
double EqualizerAnalysis::geomean_energy(const std::string& cat, const std::string& policy) const {
  return geomean(values(energy, cat, policy));
}
bool EqualizerAnalysis::has_cat(const std::string& cat) const {
  auto c = speed.find(cat);
  return c != speed.end() && !c->second.empty();
}

TraceChecks check_traces(const EqualizerAnalysis& a) {
  TraceChecks t;
  for (const EqualizerKernel& k : a.config.kernels) {
    for (const char* p : {"equalizer-perf", "equalizer-energy"}) {
      const Json& tr = a.trace(k, p);
      if (!tr.is_array() || tr.empty()) continue;
      bool perf = std::string(p) == "equalizer-perf";
      std::vector<int> last_change(tr[0]["num_blocks"].size(), -100);
      // A real kernel's trace marks its launches' first epochs (kernel_trace), which hold the reload.
      const bool launches_marked = tr[0].contains(kLaunchStart);
      for (size_t e = 0; e < tr.size(); ++e) {
        int sl = tr[e]["sm_level"].get<int>(), ml = tr[e]["mem_level"].get<int>();
        if (sl != 1 && ml != 1) ++t.five_state_violations;
        if (perf ? (sl == 0 || ml == 0) : (sl == 2 || ml == 2)) ++t.mode_violations;
        if (e == 0) continue;
        if (launches_marked && tr[e].contains(kLaunchStart)) {  // the previous epoch may be another launch's
          std::fill(last_change.begin(), last_change.end(), -100);
          continue;
        }
        if (std::abs(sl - tr[e - 1]["sm_level"].get<int>()) > 1 || std::abs(ml - tr[e - 1]["mem_level"].get<int>()) > 1)
          ++t.level_jumps;
        if (k.launches > 1 && !launches_marked) continue;  // kernel starts reload numBlocks
        for (size_t i = 0; i < last_change.size(); ++i) {
          int d = tr[e]["num_blocks"][i].get<int>() - tr[e - 1]["num_blocks"][i].get<int>();
          if (d == 0) continue;
          if (std::abs(d) > 1 || int(e) - last_change[i] < 3) ++t.block_violations;
          last_change[i] = int(e);
        }
      }
    }
  }
  return t;
}

std::vector<double> mean_blocks(const Json& trace) {
  std::vector<double> v;
  if (!trace.is_array()) return v;
  for (const Json& e : trace) {
    double s = 0;
    for (const Json& b : e["num_blocks"]) s += b.get<double>();
    v.push_back(e["num_blocks"].empty() ? 0.0 : s / double(e["num_blocks"].size()));
  }
  return v;
}

}  // namespace gpupm
