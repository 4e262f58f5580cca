#include "gpupm/experiment/equalizer/equalizer.h"
#include "gpupm/experiment/equalizer/equalizer_real.h"

namespace gpupm {

const std::vector<std::string>& equalizer_policies() {
  static const std::vector<std::string> policies = {"baseline", "sm-high",        "sm-low",          "mem-high",
                                                    "mem-low",  "equalizer-perf", "equalizer-energy"};
  return policies;
}

std::string equalizer_run_id(const EqualizerKernel& k, const std::string& what) { return k.name + "__" + what; }

void add_equalizer_run(std::vector<RunSpec>& specs, const EqualizerConfig& c, const EqualizerKernel& k,
                       const std::string& what, const std::string& policy, std::vector<std::string> extra) {
  extra.insert(extra.begin(), {"--policy", policy});
  specs.push_back(workload_run(equalizer_run_id(k, what), c.gpu, k.file, extra));
}

void add_cta_control_runs(std::vector<RunSpec>& specs, const EqualizerConfig& c, const EqualizerKernel& k) {
  add_equalizer_run(specs, c, k, "dyncta", "dyncta");
  add_equalizer_run(specs, c, k, "eqcta", "equalizer-perf", {"--set", "policy.dvfs=false"});
}

// Per kernel: every policy, the static CTA sweep 1..max; on the cache kernels
// (and spmv-1) DynCTA and CTA-only Equalizer too. One stage; on a real suite a
// second for the latter, on the programs whose kernels the first measured as
// cache-sensitive (equalizer_real.h).
std::vector<RunSpec> Equalizer::plan(const EqualizerConfig& c, const RunReports& done, size_t stage) {
  std::vector<RunSpec> specs;
  if (stage == 1 && c.real) return plan_cache_runs(c, done);
  if (stage > 0) return specs;
  for (const EqualizerKernel& k : c.kernels) {
    for (const auto& p : equalizer_policies()) add_equalizer_run(specs, c, k, p, p);
    for (uint32_t n = 1; n <= k.max_ctas; ++n)
      add_equalizer_run(specs, c, k, "ctas" + std::to_string(n), "static",
                        {"--set", "policy.ctas_per_sm=" + std::to_string(n)});
    if (k.category == "cache" || k.name == "spmv-1") add_cta_control_runs(specs, c, k);
  }
  return specs;
}

}  // namespace gpupm
