#include "gpupm/experiment/harmonia/harmonia_trace.h"

#include "gpupm/experiment/format_stats.h"
#include <nlohmann/json.hpp>

namespace gpupm {

std::map<std::string, KernelTrace> read_harmonia_trace(const Json& trace) {
  std::map<std::string, KernelTrace> m;
  if (!trace.is_array()) return m;
  for (const Json& e : trace) {
    KernelTrace& k = m[e["kernel"].get<std::string>()];
    int i = int(k.ran.size());
    k.ran.push_back(e["ran"]);
    k.us.push_back(e["kernel_us"].get<double>());
    std::string ev = e["event"].get<std::string>();
    k.events.push_back(ev);
    if (ev == "cg" && k.first_cg < 0) k.first_cg = i;
    if (e["next"] != e["ran"]) k.last_change = i;
  }
  return m;
}

Json harmonia_residency(const std::map<std::string, KernelTrace>& kernels) {
  Json r = Json::object();
  double total = 0;
  for (const auto& [name, k] : kernels)
    for (double t : k.us) total += t;
  for (const char* key : {"cus", "sm_mhz", "mem_mhz"}) {
    std::map<double, double> share;
    for (const auto& [name, k] : kernels)
      for (size_t i = 0; i < k.ran.size(); ++i) share[k.ran[i][key].get<double>()] += total > 0 ? k.us[i] / total : 0;
    Json j = Json::object();
    for (auto& [v, s] : share) j[fixed(v, 0)] = s;
    r[key] = j;
  }
  return r;
}

}  // namespace gpupm
