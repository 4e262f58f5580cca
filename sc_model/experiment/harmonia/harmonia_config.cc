#include "gpupm/experiment/harmonia/harmonia.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/platform/gpu_config.h"
#include "gpupm/platform/run_setup.h"

#include <algorithm>

namespace gpupm {

namespace {

void describe_oracle(ParamVisitor& v, OracleSpaceParams& o) {
  v.section("oracle", Presence::kRequired, "the ED^2 oracle's static grid (oracle_search.h)", [&](ParamVisitor& ov) {
    describe(ov, o);
    ov.rule("ed2p_objective", "the oracle's objective is min_ed2p", [&o] {
      return problem_unless(o.objective.kind == "min_ed2p", "objective",
                            "expected the objective {\"kind\": \"min_ed2p\"}");
    });
  });
}

void describe_core_sweep(ParamVisitor& v, HarmoniaParams& p) {
  v.section("core_sweep", Presence::kOptional,
            "claim 7: one application at all CUs and the top memory clock, at "
            "every CU clock",
            [&](ParamVisitor& s) {
              s.text("app", p.core_sweep_app, "the application (an entry's name)", Presence::kRequired);
              s.text_list("sm_levels", p.core_sweep_levels, 1, 64, "", "an SM level name of the GPU config",
                          "the CU clocks, as SM level names", Presence::kRequired);
            });
}

}  // namespace

void describe(ParamVisitor& v, HarmoniaAppParams& a) {
  describe_entry(v, a, false);
  v.text("class", a.cls, "the class it was written for; only groups results");
}

void describe(ParamVisitor& v, HarmoniaProgramParams& a) { describe_entry(v, a, true); }

void describe(ParamVisitor& v, HarmoniaVariantParams& x) {
  v.text("name", x.name, "the variant's name (its runs' id)", Presence::kRequired);
  v.json_object("params", x.params, "policy.* settings of this variant, over policy_params");
}

void describe(ParamVisitor& v, HarmoniaParams& p) {
  describe_suite(v, p.suite, "harmonia");
  v.json_object("policy_params", p.policy_params, kPolicyParamsHelp);
  v.list("variants", p.variants, 1, 16, Presence::kRequired, "the policy's variants; the first is Harmonia itself",
         [](ParamVisitor& x, HarmoniaVariantParams& h) { describe(x, h); });
  describe_oracle(v, p.oracle);
  describe_core_sweep(v, p);
  v.text_list("stress_apps", p.stress_apps, 0, 1000, "", "an entry's name",
              "applications left out of geomean2 (the paper's MaxFlops and DeviceMemory)");
  v.section("classification", Presence::kOptional, "a real suite's rule for the THRASH class (harmonia_real.h)",
            [&](ParamVisitor& r) {
              r.number("thrash_gain_min", p.thrash_gain_min, 1.0, 10.0, "x",
                       "a program is THRASH when fewer CUs (top clocks) run it at least this much faster than all",
                       Presence::kRequired);
            });
  real_suite_only(v, p.suite, "classification");
  describe_entries(v, p.suite, "apps", p.apps, "the synthetic suite's applications (kernel profiles)", p.programs);
  describe_claims_and_targets(v, p, harmonia_claim_limits());
}

namespace {

// Each variant's policy.* settings (policy_params, then its own), checked as the policy reads them on GPU.
std::vector<HarmoniaVariant> harmonia_variants(const HarmoniaParams& p, const std::string& gpu,
                                               const std::string& file) {
  const PolicyGpu on = load_policy_gpu(gpu);
  check_policy_settings(p.policy_params, "harmonia", on, file, "policy_params");
  std::vector<HarmoniaVariant> out;
  for (size_t i = 0; i < p.variants.size(); ++i) {
    const HarmoniaVariantParams& v = p.variants[i];
    Json params = p.policy_params;
    params.update(v.params);
    check_policy_settings(params, "harmonia", on, file, "variants[" + std::to_string(i) + "].params");
    HarmoniaVariant x{v.name, {"--policy", "harmonia"}};
    for (const std::string& s : policy_sets(params)) x.args.push_back(s);
    out.push_back(x);
  }
  return out;
}

// The GPU's CU count and level names -> MHz; every level the oracle grid names must be one of them.
void read_gpu_levels(HarmoniaConfig& c, const std::string& file) {
  const GpuConfig gpu = load_gpu_config(c.gpu);
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
  const HarmoniaParams p = read_experiment_config<HarmoniaParams>(opt, shipped_config);
  const SuiteConfig sc = suite_config(opt, shipped_config, p.suite);
  HarmoniaConfig c;
  c.real = sc.real;
  c.gpu = sc.gpu;
  c.suite = sc.suite;
  c.variants = harmonia_variants(p, c.gpu, sc.file);
  c.oracle = oracle_space(p.oracle, sc.file, "oracle");
  c.core_sweep_app = p.core_sweep_app;
  c.core_sweep_levels = p.core_sweep_levels;
  c.stress_apps = p.stress_apps;
  c.claims = ClaimBook(p.claims);
  c.targets = claim_targets(p.targets);
  if (c.real) c.thrash_gain_min = p.thrash_gain_min;
  const std::vector<SuiteEntry> entries =
      c.real ? suite_entries_of(opt, sc, p.programs, "apps") : suite_entries_of(opt, sc, p.apps, "apps");
  for (const SuiteEntry& e : entries) {
    HarmoniaApp x{e.name, c.real ? "" : p.apps[e.index].cls, e.file};
    if (c.real) add_checked_program(c.apps, std::move(x), e.wanted, c.gpu, opt.scale);
    else add_checked_app(c.apps, std::move(x), e.wanted);
  }
  read_gpu_levels(c, sc.file);
  return c;
}

}  // namespace gpupm
