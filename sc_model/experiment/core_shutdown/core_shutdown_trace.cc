#include "gpupm/experiment/core_shutdown/core_shutdown_trace.h"
#include <nlohmann/json.hpp>

namespace gpupm {

std::vector<LaunchTrace> read_launch_traces(const Json& trace) {
  std::vector<LaunchTrace> v;
  if (!trace.is_array()) return v;
  for (const Json& e : trace) {
    std::string ev = e["event"].get<std::string>();
    if (ev == "sample" && e.value("why", "") == "launch") {
      LaunchTrace l;
      l.kernel = e.value("kernel", "");
      l.launch = e.value("launch", 0u);
      l.start_us = e["time_us"].get<double>();
      v.push_back(l);
    }
    if (v.empty()) continue;
    LaunchTrace& l = v.back();
    if (ev == "search") ++l.searches;
    if (ev == "step" || ev == "sampled" || ev == "referenced") ++l.windows;
    if (ev == "settle") {
      l.settles.push_back(e["setting"].get<uint32_t>());
      l.steps.push_back(e["steps"].get<uint32_t>());
      if (l.settle_time_us < 0) l.settle_time_us = e["time_us"].get<double>() - l.start_us;
    }
    if (ev == "drift") ++l.drifts;
    if (ev == "wake") l.woke_early = true;
    if (ev == "end") {
      l.final_sms = e["setting"].get<uint32_t>();
      l.ended = true;
      l.end_us = e["time_us"].get<double>();
    }
  }
  return v;
}

double mean_active_sms(const Json& trace, double total_us, uint32_t sms) {
  if (!trace.is_array() || trace.empty() || total_us <= 0) return sms;
  double acc = 0, last_t = 0, cur = sms;
  for (const Json& e : trace) {
    double t = e["time_us"].get<double>();
    acc += cur * (t - last_t);
    last_t = t;
    std::string ev = e["event"].get<std::string>();
    if (ev == "sample" || ev == "wake") cur = sms;
    if (ev == "settle" || ev == "step") cur = e["setting"].get<double>();
  }
  acc += cur * (total_us - last_t);
  return acc / total_us;
}

}  // namespace gpupm
