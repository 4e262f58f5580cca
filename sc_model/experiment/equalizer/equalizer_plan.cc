#include "experiment/equalizer/equalizer.h"

namespace gpupm {

const std::vector<std::string>& equalizer_policies() {
  static const std::vector<std::string> policies = {"baseline", "sm-high", "sm-low", "mem-high", "mem-low",
                                                    "equalizer-perf", "equalizer-energy"};
  return policies;
}

std::string equalizer_run_id(const EqualizerKernel& k, const std::string& what) { return k.name + "__" + what; }

// Per kernel: every policy, the static CTA sweep 1..max; on the cache kernels
// (and spmv-1) DynCTA and CTA-only Equalizer too. One stage.
std::vector<RunSpec> Equalizer::plan(const EqualizerConfig& c, const RunReports&, size_t stage) {
  std::vector<RunSpec> specs;
  if (stage > 0) return specs;
  for (const EqualizerKernel& k : c.kernels) {
    auto add = [&](const std::string& what, const std::string& policy, std::vector<std::string> extra = {}) {
      extra.insert(extra.begin(), {"--policy", policy});
      specs.push_back(workload_run(equalizer_run_id(k, what), c.gpu, k.file, extra));
    };
    for (const auto& p : equalizer_policies()) add(p, p);
    for (uint32_t n = 1; n <= k.max_ctas; ++n)
      add("ctas" + std::to_string(n), "static", {"--set", "policy.ctas_per_sm=" + std::to_string(n)});
    if (k.category == "cache" || k.name == "spmv-1") {
      add("dyncta", "dyncta");
      add("eqcta", "equalizer-perf", {"--set", "policy.dvfs=false"});
    }
  }
  return specs;
}

}  // namespace gpupm
