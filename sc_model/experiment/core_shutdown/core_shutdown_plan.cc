#include "gpupm/experiment/core_shutdown/core_shutdown.h"

#include <set>

namespace gpupm {

const std::vector<std::string>& core_shutdown_policies() {
  static const std::vector<std::string> policies = {"core-shutdown", "core-dvfs"};
  return policies;
}

std::string core_shutdown_run_id(const CoreShutdownApp& a, const std::string& run) { return a.name + "__" + run; }

// Per application: the baseline, each dynamic policy, every point of every oracle space (once).
std::vector<RunSpec> CoreShutdown::plan(const CoreShutdownConfig& c, const RunReports&, size_t stage) {
  std::vector<RunSpec> specs;
  if (stage > 0) return specs;
  for (const CoreShutdownApp& a : c.apps) {
    auto add = [&](const std::string& run, const std::vector<std::string>& extra) {
      specs.push_back(workload_run(core_shutdown_run_id(a, run), c.gpu, a.file, extra));
    };
    add("baseline", {"--policy", "baseline"});
    for (const auto& p : core_shutdown_policies()) {
      std::vector<std::string> args = {"--policy", p};
      args.insert(args.end(), c.policy_sets.begin(), c.policy_sets.end());
      add(p, args);
    }
    std::set<std::string> seen;
    for (const OracleSpace& o : c.oracles)
      for (const OraclePoint& p : o.points())
        if (seen.insert(point_run_name(o, p)).second) add(point_run_name(o, p), point_args(p));
  }
  return specs;
}

}  // namespace gpupm
