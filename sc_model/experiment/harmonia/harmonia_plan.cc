#include "gpupm/experiment/harmonia/harmonia.h"

namespace gpupm {

std::string harmonia_run_id(const HarmoniaApp& a, const std::string& run) { return a.name + "__" + run; }

// Per application: the baseline, each variant, every grid point; on the core
// sweep's application each CU clock, and the same with the L2 on the memory clock.
std::vector<RunSpec> Harmonia::plan(const HarmoniaConfig& c, const RunReports&, size_t stage) {
  std::vector<RunSpec> specs;
  if (stage > 0) return specs;
  for (const HarmoniaApp& a : c.apps) {
    auto add = [&](const std::string& run, const std::vector<std::string>& extra) {
      specs.push_back(workload_run(harmonia_run_id(a, run), c.gpu, a.file, extra));
    };
    add("baseline", {"--policy", "baseline"});
    for (const HarmoniaVariant& v : c.variants) add(v.name, v.args);
    for (const OraclePoint& p : c.oracle.points()) add(point_run_name(c.oracle, p), point_args(p));
    if (a.name == c.core_sweep_app)
      for (const std::string& l : c.core_sweep_levels) {
        add("core_" + l, {"--policy", "static-point", "--set", "policy.sm_level=" + l});
        // Control: the same with the L2 on the memory clock (what claim 7's mechanism adds).
        add("core_l2mem_" + l,
            {"--policy", "static-point", "--set", "policy.sm_level=" + l, "--set", "gpu.memory.l2_clock=memory"});
      }
  }
  return specs;
}

}  // namespace gpupm
