#include "experiment/harmonia/harmonia.h"
#include "common/data_dir.h"

#include "platform/gpu_config.h"

#include <algorithm>

namespace gpupm {

namespace {

std::vector<std::string> param_sets(const Json& params) {
  std::vector<std::string> v;
  for (auto it = params.begin(); it != params.end(); ++it) {
    v.push_back("--set");
    v.push_back("policy." + it.key() + "=" + it.value().dump());
  }
  return v;
}

std::vector<std::string> names_of(const Json& list) {
  std::vector<std::string> v;
  for (const Json& x : list) v.push_back(x.is_string() ? x.get<std::string>() : x.dump());
  return v;
}

void read_variants(JsonReader& r, HarmoniaConfig& c) {
  Json common = Json::object();
  if (r.has("policy_params")) {
    common = r.raw("policy_params");
    if (!common.is_object()) r.fail("policy_params", "expected an object of policy parameters");
  }
  r.for_each("variants", 1, 16, [&](JsonReader& v, size_t) {
    HarmoniaVariant x;
    x.name = v.get_string("name");
    Json params = common;
    if (v.has("params")) {
      const Json& p = v.raw("params");
      if (!p.is_object()) v.fail("params", "expected an object of policy parameters");
      params.update(p);
    }
    x.args = {"--policy", "harmonia"};
    for (const std::string& s : param_sets(params)) x.args.push_back(s);
    c.variants.push_back(x);
  });
}

void read_rest(JsonReader& r, HarmoniaConfig& c, const std::string& shipped_config) {
  read_variants(r, c);
  {
    JsonReader o = r.object("oracle");
    c.oracle = parse_oracle_space(o);
    o.finish();
    if (c.oracle.objective.kind != "min_ed2p") r.fail("oracle", "expected the objective {\"kind\": \"min_ed2p\"}");
  }
  if (r.has("core_sweep")) {
    JsonReader s = r.object("core_sweep");
    c.core_sweep_app = s.get_string("app");
    const Json& l = s.raw("sm_levels");
    if (!l.is_array() || l.empty()) s.fail("sm_levels", "expected a non-empty array of SM level names");
    c.core_sweep_levels = names_of(l);
    s.finish();
  }
  if (r.has("stress_apps")) {
    const Json& l = r.raw("stress_apps");
    if (!l.is_array()) r.fail("stress_apps", "expected an array of application names");
    c.stress_apps = names_of(l);
  }
  c.claims = ClaimBook::read(r, shipped_config, harmonia_claim_limits());
  c.targets = read_claim_targets(r, shipped_config, harmonia_claim_limits());
}

// The GPU's CU count and level names -> MHz; every level the oracle grid names must be one of them.
void read_gpu_levels(HarmoniaConfig& c, const std::string& file) {
  const InputFileScope gpu_file_scope(c.gpu);
  GpuConfig gpu = parse_gpu_config(load_json_file(c.gpu), c.gpu);
  c.sms = gpu.sm.count;
  for (const VfLevel& l : gpu.dvfs[Domain::Sm].levels) c.sm_mhz[l.name] = l.mhz;
  for (const VfLevel& l : gpu.dvfs[Domain::Mem].levels) c.mem_mhz[l.name] = l.mhz;
  for (const OracleAxis& a : c.oracle.axes)
    for (size_t i = 0; i < a.values.size(); ++i) {
      const Json& v = a.values[i];
      const auto& names = a.param == "sm_level" ? c.sm_mhz : c.mem_mhz;
      if ((a.param == "sm_level" || a.param == "mem_level") && (!v.is_string() || !names.count(v.get<std::string>())))
        throw InputError(file, "oracle.axes." + a.param + "[" + std::to_string(i) + "]",
                         "expected a level name of " + c.gpu);
    }
}

// A real suite's "classification": the least gain of fewer CUs that makes a program THRASH.
void read_classification(JsonReader& config, HarmoniaConfig& c) {
  JsonReader r = config.object("classification");
  c.thrash_gain_min = r.get_double("thrash_gain_min", 1.0, 10.0);
  r.finish();
}

}  // namespace

const std::vector<ClaimLimits>& harmonia_claim_limits() {
  static const std::vector<ClaimLimits> limits = {
      {"C1a", {"speedup_min", "power_saving_min", "power_saving_max"}},
      {"C1b", {"knee_time_factor", "ratio_min", "ratio_max", "speedup_min"}},
      {"C2a", {"improvement_min"}},
      {"C2b", {}},
      {"C2c", {"slowdown_max"}},
      {"C2d", {"gap_max"}},
      {"C3", {"energy_within"}},
      {"C4a", {"share_of_harmonia_max"}},
      {"C4b", {"share_min", "share_max"}},
      {"C5", {"energy_optimal_loss_min", "ed2p_optimal_loss_max"}},
      {"C6", {"cg_median", "fg_median_max"}},
      {"C7", {"lowest_clock_perf_max"}}};
  return limits;
}

PointValues values_of(const HarmoniaConfig& c, const OraclePoint& p) {
  PointValues v{double(c.sms), 0, 0};
  for (const auto& [n, m] : c.sm_mhz) v.sm_mhz = std::max(v.sm_mhz, m);
  for (const auto& [n, m] : c.mem_mhz) v.mem_mhz = std::max(v.mem_mhz, m);
  for (const auto& [k, x] : p) {
    if (k == "sms" && x.get<double>() > 0) v.cus = x.get<double>();
    if (k == "sm_level") v.sm_mhz = c.sm_mhz.at(x.get<std::string>());
    if (k == "mem_level") v.mem_mhz = c.mem_mhz.at(x.get<std::string>());
  }
  return v;
}

HarmoniaConfig Harmonia::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  HarmoniaConfig c;
  c.real = is_real_suite(opt, shipped_config);
  SuiteConfig sc = read_suite_config(
      opt, shipped_config, "apps",
      [&](JsonReader& r) {
        read_rest(r, c, shipped_config);
        if (c.real) read_classification(r, c);
        c.gpu = source_relative(r.get_string("gpu"));
      },
      [&](JsonReader& a, const std::string& name, const std::string& workload, bool wanted) {
        HarmoniaApp x;
        x.name = name;
        x.file = workload;
        if (!c.real) {
          x.cls = a.get_string("class", "");
          return add_checked_app(c.apps, std::move(x), wanted);
        }
        if (a.has("class")) a.fail("class", "a real suite's classes are measured after the runs (harmonia_real.h), not given");
        add_checked_program(c.apps, std::move(x), wanted, c.gpu, opt.scale);
      });
  c.gpu = sc.gpu;
  c.suite = sc.suite;
  read_gpu_levels(c, sc.file);
  return c;
}

}  // namespace gpupm
