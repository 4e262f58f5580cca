#include "support/report_runner.h"

#include "support/test_support.h"

#include <fstream>

namespace gpupm::test {

RunResult run_sim(const std::string& workload, const std::string& extra_args, const std::string& tag,
                  const std::string& gpu) {
  static int counter = 0;
  RunResult r;
  r.out_dir = temp_dir(tag + std::to_string(counter++));
  std::string wl = workload.find('/') == std::string::npos ? source_path("configs/workloads/" + workload + ".json")
                                                            : workload;
  std::string args = "run --quiet --gpu " + source_path(gpu) + " --workload " + wl + " --out " +
                     r.out_dir + " " + extra_args;
  r.status = run_gpupm(args, &r.output);
  if (r.status == 0) {
    std::ifstream f(r.out_dir + "/report.json");
    r.report = nlohmann::json::parse(f);
  }
  return r;
}

double sim_time(const nlohmann::json& report) { return report.at("total").at("sim_time_s").get<double>(); }

}  // namespace gpupm::test
