#include "gpupm/experiment/core_shutdown/core_shutdown.h"
#include "gpupm/platform/run_setup.h"

#include <algorithm>

namespace gpupm {

const std::vector<ClaimLimits>& core_shutdown_claim_limits() {
  static const std::vector<ClaimLimits> limits = {{"C1", {"within"}},
                                                  {"C2", {"knee_within_sms", "steps_max"}},
                                                  {"C3", {"static_peak_gain_min"}},
                                                  {"C4a", {"saving_min"}},
                                                  {"C4b", {"gap_max"}},
                                                  {"C4c", {"speedup_min"}},
                                                  {"C5", {"r2_min", "slope_min", "slope_max"}},
                                                  {"C6", {}},
                                                  {"C7", {"phase_span_min", "stable_span_max"}},
                                                  {"C8", {}}};
  return limits;
}

namespace {

void describe_classification(ParamVisitor& v, CoreShutdownClassification& c) {
  v.section(
      "classification", Presence::kOptional,
      "a real suite's rules measuring each program's class from its runs (core_shutdown_real.h)", [&](ParamVisitor& r) {
        r.number("mbu_min", c.mbu_min, 0.0, 1.0, "", "a kernel is memory-intensive above this baseline MBU",
                 Presence::kRequired);
        r.number("kernel_share_min", c.kernel_share_min, 0.0, 1.0, "",
                 "kernels below this share of their program's baseline time are not counted", Presence::kRequired);
        r.number("thrash_gain_min", c.thrash_gain_min, 1.0, 10.0, "x",
                 "cache-thrash: the fastest static SM count beats all SMs by this much", Presence::kRequired);
        r.integer("phase_knee_span", c.phase_knee_span, 1, 1024, "SMs",
                  "phase-changing: a kernel's per-launch knees span this many SMs", Presence::kRequired);
        r.integer("phase_min_windows", c.phase_min_windows, 0, 64, "windows",
                  "... over its launches through which the policy sampled this many windows", Presence::kRequired);
      });
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

void describe(ParamVisitor& v, CoreShutdownAppParams& a) {
  describe_entry(v, a, false);
  v.text("class", a.cls, "the class it was written for; only groups results");
  v.flag("memory_intensive", a.memory, "one of the paper's MEM / MEM-COMP kernels; only groups results");
}

void describe(ParamVisitor& v, CoreShutdownProgramParams& a) { describe_entry(v, a, true); }

void describe(ParamVisitor& v, CoreShutdownParams& p) {
  describe_suite(v, p.suite, "core-shutdown");
  v.json_object("policy_params", p.policy_params, kPolicyParamsHelp);
  v.list("oracles", p.oracles, 1, 16, Presence::kRequired, "the exhaustive static oracles (oracle_search.h)",
         [](ParamVisitor& o, OracleSpaceParams& x) { describe(o, x); });
  describe_classification(v, p.classification);
  real_suite_only(v, p.suite, "classification");
  describe_entries(v, p.suite, "apps", p.apps, "the synthetic suite's applications (kernel profiles)", p.programs);
  describe_claims_and_targets(v, p, core_shutdown_claim_limits());
}

CoreShutdownConfig CoreShutdown::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  const CoreShutdownParams p = read_experiment_config<CoreShutdownParams>(opt, shipped_config);
  const SuiteConfig sc = suite_config(opt, shipped_config, p.suite);
  CoreShutdownConfig c;
  c.real = sc.real;
  c.gpu = sc.gpu;
  c.suite = sc.suite;
  c.policy_params = p.policy_params;
  const PolicyGpu on = load_policy_gpu(c.gpu);
  for (const char* policy : {"core-shutdown", "core-dvfs"})  // both searches read them
    check_policy_settings(p.policy_params, policy, on, sc.file, "policy_params");
  c.policy_sets = policy_sets(p.policy_params);
  for (size_t i = 0; i < p.oracles.size(); ++i)
    c.oracles.push_back(oracle_space(p.oracles[i], sc.file, "oracles[" + std::to_string(i) + "]"));
  c.claims = ClaimBook(p.claims);
  c.targets = claim_targets(p.targets);
  if (c.real) {
    c.classification = p.classification;
    for (const SuiteEntry& e : suite_entries_of(opt, sc, p.programs, "apps"))
      if (e.wanted) add_program(c, e.name, e.file, opt.scale);
    return c;
  }
  for (const SuiteEntry& e : suite_entries_of(opt, sc, p.apps, "apps")) {
    CoreShutdownApp x;
    x.name = e.name;
    x.cls = p.apps[e.index].cls;
    x.memory = p.apps[e.index].memory;
    x.file = e.file;
    add_checked_app(c.apps, std::move(x), e.wanted);
  }
  return c;
}

}  // namespace gpupm
