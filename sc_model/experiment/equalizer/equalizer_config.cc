#include "experiment/equalizer/equalizer.h"

#include "workload/kernel_profile.h"

#include <algorithm>

namespace gpupm {

namespace {

const std::vector<std::string> kCategories = {"compute", "memory", "cache", "unsaturated"};

// Each target's key and the name of its limit ("" for none).
const std::vector<std::pair<std::string, std::string>> kTargets = {
    {"perf_speedup", "min"}, {"perf_energy", "max"},  {"perf_vs_static", ""},
    {"energy_saving", "max"}, {"energy_perf", "min"}, {"energy_vs_static_best", ""}};

}  // namespace

std::map<std::string, EqualizerTarget> read_equalizer_targets(JsonReader& config, const std::string& shipped_config) {
  if (!config.has("targets")) {
    const Json shipped = load_json_file(shipped_config);
    JsonReader r(shipped, shipped_config, "");
    return read_equalizer_targets(r, shipped_config);
  }
  std::map<std::string, EqualizerTarget> targets;
  JsonReader all = config.object("targets");
  for (const auto& [key, limit] : kTargets) {
    JsonReader t = all.object(key);
    targets[key].text = t.get_string("target");
    if (!limit.empty()) targets[key].limit = t.get_double(limit, 0.0, 10.0);
    t.finish();
  }
  all.finish();
  return targets;
}

const std::vector<ClaimLimits>& equalizer_claim_limits() {
  static const std::vector<ClaimLimits> limits = {
    {"S1", {"compute_min", "others_max"}}, {"S2", {}}, {"S3", {"compute_within", "others_min"}},
    {"S4", {"compute_within"}}, {"S5", {"off_max_factor", "plateau_factor"}}, {"S6", {"counts_min", "gain_min"}},
    {"C1", {}}, {"C2", {"x_mem_min"}}, {"C3", {"x_mem_max", "waiting_over_active_min"}}, {"C4", {}},
    {"P1", {"perf_min", "perf_max"}}, {"P2", {"perf_min", "perf_max"}}, {"P3", {"kmn_min"}}, {"P4", {}},
    {"P5", {"sm_high_min"}}, {"P6", {"mem_high_max", "perf_max"}}, {"P7", {}},
    {"E1", {"perf_min", "energy_max"}}, {"E2", {"perf_min", "energy_max"}}, {"E3", {"perf_min", "energy_max"}},
    {"E4", {"perf_min", "energy_max"}}, {"E5", {}}, {"D1", {}}, {"D2", {}}, {"D3", {}}, {"D4", {}}, {"D5", {}},
      {"D6", {"ratio_max", "ctas_margin"}}, {"D7", {"ratio_min"}}};
  return limits;
}

EqualizerConfig Equalizer::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  EqualizerConfig c;
  SuiteConfig sc = read_suite_config(
      opt, shipped_config, "kernels",
      [&](JsonReader& r) {
        c.claims = ClaimBook::read(r, shipped_config, equalizer_claim_limits());
        c.targets = read_equalizer_targets(r, shipped_config);
      },
      [&](JsonReader& kr, const std::string& name, const std::string& profile, bool wanted) {
        EqualizerKernel k;
        k.name = name;
        k.category = kr.get_enum("category", kCategories, "compute");
        k.fraction = kr.get_double("kernel_fraction", 0.0, 1.0, 0.0);
        k.file = profile;
        if (!wanted) return;
        Workload w = parse_workload(load_json_file(k.file), k.file, 1);
        const KernelLaunch& l = *w.launches.front();
        k.w_cta = l.warps_per_cta;
        k.max_ctas = std::min({l.max_ctas_per_sm, 8u, 48u / l.warps_per_cta});
        k.launches = uint32_t(w.launches.size());
        c.kernels.push_back(k);
      });
  c.gpu = sc.gpu;
  return c;
}

}  // namespace gpupm
