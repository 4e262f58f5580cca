#include "gpupm/experiment/report_view.h"

#include <fstream>
#include <stdexcept>

namespace gpupm {

const Json& field_or_null(const Json& j, const char* key) {
  static const Json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string ReportView::policy_name() const {
  const Json& name = field_or_null(field_or_null(config(), "policy"), "name");
  return name.is_string() ? name.get<std::string>() : "";
}

std::string ReportView::controller_impl() const {
  const Json& impl = field_or_null(gpu_config(), "controller_impl");
  return impl.is_string() ? impl.get<std::string>() : "cpp";
}

double IntervalView::energy_of_domain(const char* domain) const {
  return field_or_null(field_or_null(field(report_key::kEnergy), report_key::kByDomain), domain).get<double>();
}

double IntervalView::energy_of_component(const char* component) const {
  return field_or_null(field_or_null(field(report_key::kEnergy), report_key::kByComponent), component).get<double>();
}

double IntervalView::residency(const char* domain, const char* level) const {
  const Json& d = field_or_null(field(report_key::kVfResidency), domain);
  return d.is_object() ? d.value(level, 0.0) : 0.0;
}

uint32_t IntervalView::unpowered_sms() const {
  const Json& sms = field("sm");
  if (!sms.is_array()) throw std::runtime_error("report: no per-SM energy list (total.sm)");
  uint32_t n = 0;
  for (const Json& sm : sms) n += sm.at("energy_j").get<double>() == 0.0;
  return n;
}

void RunReports::read(const std::string& out_dir, const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    Json j;
    std::ifstream f(out_dir + "/runs/" + id + "/report.json");
    if (f) j = Json::parse(f, nullptr, false);
    if (j.is_discarded()) j = Json();
    add(id, std::move(j));
  }
}

void RunReports::add(const std::string& id, Json report) {
  if (!reports_.count(id)) ids_.push_back(id);
  reports_[id] = std::move(report);
}

const Json& RunReports::document(const std::string& id) const {
  static const Json kMissing;
  auto it = reports_.find(id);
  return it == reports_.end() ? kMissing : it->second;
}

}  // namespace gpupm
