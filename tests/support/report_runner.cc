#include "support/report_runner.h"

#include "support/test_support.h"

#include <fstream>

namespace gpupm::test {

RunResult run_sim(const std::string& workload, const std::string& extra_args, const std::string& tag,
                  const std::string& gpu) {
  static int counter = 0;
  RunResult r;
  r.out_dir = temp_dir(tag + std::to_string(counter++));
  std::string wl =
      workload.find('/') == std::string::npos ? source_path("configs/workloads/" + workload + ".json") : workload;
  std::string args =
      "run --quiet --gpu " + source_path(gpu) + " --workload " + wl + " --out " + r.out_dir + " " + extra_args;
  r.status = run_gpupm(args, &r.output);
  if (r.status == 0) {
    std::ifstream f(r.out_dir + "/report.json");
    r.report = nlohmann::json::parse(f);
  }
  return r;
}

double sim_time(const nlohmann::json& report) { return report.at("total").at("sim_time_s").get<double>(); }

CtaSweep sweep_cta_limits(int max, const std::function<nlohmann::json(int)>& total_at) {
  CtaSweep s;
  double best = 0.0, at_max = 0.0;
  for (int n = 1; n <= max; ++n) {
    const nlohmann::json t = total_at(n);
    if (t.is_null()) return {};
    s.l1_hit.push_back(t.at("l1_hit_rate").get<double>());
    const double time = t.at("sim_time_s").get<double>();
    if (s.best_n == 0 || time < best) {
      best = time;
      s.best_n = n;
    }
    if (n == max) at_max = time;
  }
  s.speedup_over_max = at_max / best;
  return s;
}

std::string compute_stream_pair(int compute_ctas, int stream_ctas) {
  const std::string compute = std::to_string(compute_ctas), stream = std::to_string(stream_ctas);
  return R"({"name": "pair", "respawn": true, "apps": [
 {"name": "compute", "kernels": [{"name": "compute", "grid_ctas": )" +
         compute + R"(, "warps_per_cta": 8, "max_ctas_per_sm": 6,
   "insts_per_warp": 1200, "mix": {"alu_per_mem": 24, "dep_min": 2, "dep_max": 8},
   "memory": {"stream": 0.05, "global_reuse": 0.95, "global_set_bytes": 8192}}]},
 {"name": "stream", "kernels": [{"name": "stream", "grid_ctas": )" +
         stream + R"(, "warps_per_cta": 8, "max_ctas_per_sm": 6,
   "insts_per_warp": 160, "mix": {"alu_per_mem": 3, "store_fraction": 0.2, "mem_burst": 2, "dep_min": 2, "dep_max": 6},
   "memory": {"lines_per_access": 4, "stream": 1.0}}]}]})";
}

}  // namespace gpupm::test
