#include "gpupm/experiment/kernel_interval.h"

namespace gpupm {

namespace {

// Metrics a kernel's launches add up; every other number is a time-weighted mean.
bool additive(const std::string& key) {
  return key == report_key::kSimTime || key == report_key::kEnergy || key == report_key::kInstructions ||
         key == report_key::kCycles || key == "ctas_completed" || key == "icache_misses";
}

// One place of several launches' metrics combined: added (ADD) or averaged weighted by WEIGHTS;
// a non-number (names, CTA shapes) is the first launch's.
Json combine(const std::vector<const Json*>& parts, const std::vector<double>& weights, bool add) {
  const Json& first = *parts.front();
  if (first.is_object()) {
    Json out = Json::object();
    for (auto it = first.begin(); it != first.end(); ++it) {
      std::vector<const Json*> sub;
      for (const Json* p : parts) sub.push_back(&field_or_null(*p, it.key().c_str()));
      out[it.key()] = combine(sub, weights, add || additive(it.key()));
    }
    return out;
  }
  double sum = 0, weight = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i]->is_number()) return first;
    sum += parts[i]->get<double>() * (add ? 1.0 : weights[i]);
    weight += weights[i];
  }
  return add ? sum : (weight > 0 ? sum / weight : 0.0);
}

}  // namespace

std::vector<const Json*> launches_of(const Json& report, const std::string& kernel) {
  std::vector<const Json*> launches;
  const Json& all = field_or_null(report, report_key::kKernels);
  if (!all.is_array()) return launches;
  for (const Json& l : all)
    if (field_or_null(l, report_key::kLaunchKernel) == kernel) launches.push_back(&l);
  return launches;
}

Json kernel_interval(const Json& report, const std::string& kernel) {
  const std::vector<const Json*> launches = launches_of(report, kernel);
  if (launches.empty()) return Json();
  std::vector<double> weights;
  for (const Json* l : launches) weights.push_back(IntervalView(*l).sim_time_s());
  return combine(launches, weights, false);
}

}  // namespace gpupm
