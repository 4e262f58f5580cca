#include "experiment/core_shutdown/core_shutdown.h"

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

CoreShutdownConfig CoreShutdown::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  CoreShutdownConfig c;
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
      },
      [&](JsonReader& a, const std::string& name, const std::string& profile, bool wanted) {
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
