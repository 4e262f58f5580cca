#include "experiment/core_shutdown/core_shutdown.h"

#include <algorithm>

namespace gpupm {

const std::vector<ClaimLimits>& core_shutdown_claim_limits() {
  static const std::vector<ClaimLimits> limits = {
      {"C1", {"within"}},
      {"C2", {"knee_within_sms", "steps_max"}},
      {"C3", {"static_peak_gain_min"}},
      {"C4a", {"saving_min"}},
      {"C4b", {"gap_max"}},
      {"C4c", {"speedup_min"}},
      {"C5", {"r2_min", "slope_min", "slope_max"}},
      {"C6", {}},
      {"C7", {"phase_span_min", "stable_span_max"}}};
  return limits;
}

namespace {

CoreShutdownClassification read_classification(JsonReader& config) {
  CoreShutdownClassification c;
  JsonReader r = config.object("classification");
  c.mbu_min = r.get_double("mbu_min", 0.0, 1.0);
  c.kernel_share_min = r.get_double("kernel_share_min", 0.0, 1.0);
  c.thrash_gain_min = r.get_double("thrash_gain_min", 1.0, 10.0);
  c.phase_knee_span = uint32_t(r.get_uint("phase_knee_span", 1, 1024));
  c.phase_min_windows = uint32_t(r.get_uint("phase_min_windows", 0, 64));
  r.finish();
  return c;
}

// A program of the real suite: no class (it is measured), its kernels read as `gpupm run` would.
void add_program(CoreShutdownConfig& c, const std::string& name, const std::string& program, const std::string& scale) {
  CoreShutdownApp x;
  x.name = name;
  x.file = program;
  for (const ProgramLaunch& l : check_program(c.gpu, program, scale))
    if (std::find(x.kernels.begin(), x.kernels.end(), l.kernel) == x.kernels.end()) x.kernels.push_back(l.kernel);
  c.apps.push_back(std::move(x));
}

}  // namespace

CoreShutdownConfig CoreShutdown::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  CoreShutdownConfig c;
  c.real = is_real_suite(opt, shipped_config);
  SuiteConfig sc = read_suite_config(
      opt, shipped_config, "apps",
      [&](JsonReader& r) {
        if (r.has("policy_params")) {
          c.policy_params = r.raw("policy_params");
          if (!c.policy_params.is_object()) r.fail("policy_params", "expected an object of policy parameters");
          for (auto it = c.policy_params.begin(); it != c.policy_params.end(); ++it) {
            c.policy_sets.push_back("--set");
            c.policy_sets.push_back("policy." + it.key() + "=" + it.value().dump());
          }
        }
        r.for_each("oracles", 1, 16, [&](JsonReader& o, size_t) { c.oracles.push_back(parse_oracle_space(o)); });
        c.claims = ClaimBook::read(r, shipped_config, core_shutdown_claim_limits());
        c.targets = read_claim_targets(r, shipped_config, core_shutdown_claim_limits());
        if (c.real) c.classification = read_classification(r);
        c.gpu = source_relative(r.get_string("gpu"));
      },
      [&](JsonReader& a, const std::string& name, const std::string& profile, bool wanted) {
        if (c.real) {
          if (wanted) add_program(c, name, profile, opt.scale);
          return;
        }
        CoreShutdownApp x;
        x.name = name;
        x.cls = a.get_string("class", "");
        x.memory = a.get_bool("memory_intensive", true);
        x.file = profile;
        add_checked_app(c.apps, std::move(x), wanted);
      });
  c.gpu = sc.gpu;
  c.suite = sc.suite;
  return c;
}

}  // namespace gpupm
