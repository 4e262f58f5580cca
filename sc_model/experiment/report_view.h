// A typed, read-only view of a run's report.json (schema:
// docs/report.schema.json; key names: report/report_keys.h), and the reports
// of an experiment's runs by run id. Views hold a reference to the document,
// which must outlive them. A field missing from the document (or a report
// missing altogether) reads as null, so reading a number of it throws.
#pragma once

#include "gpupm/common/json_reader.h"
#include "gpupm/report/report_keys.h"

#include <map>
#include <string>
#include <vector>

namespace gpupm {

// J[KEY], or null when J is no object or lacks KEY.
const Json& field_or_null(const Json& j, const char* key);

// The metrics of one interval of a run: report.total or report.kernels[i].
class IntervalView {
 public:
  explicit IntervalView(const Json& metrics) : j_(metrics) {}

  double sim_time_s() const { return number(report_key::kSimTime); }
  double energy_j() const {
    return field_or_null(field_or_null(j_, report_key::kEnergy), report_key::kEnergyTotal).get<double>();
  }
  double energy_of_domain(const char* domain) const;        // energy_j.by_domain.DOMAIN
  double energy_of_component(const char* component) const;  // energy_j.by_component.COMPONENT
  double ipc() const { return number(report_key::kIpc); }
  double instructions() const { return number(report_key::kInstructions); }
  double sm_cycles() const { return field_or_null(field_or_null(j_, report_key::kCycles), "sm").get<double>(); }
  double average_power_w() const { return number(report_key::kAveragePower); }
  double l2_hit_rate() const { return number(report_key::kL2HitRate); }
  double dram_utilisation() const { return number(report_key::kDramUtilisation); }
  double warp_state(const char* state) const {
    return field_or_null(field_or_null(j_, report_key::kWarpStates), state).get<double>();
  }
  // The share of time DOMAIN ("sm", "mem") spent at LEVEL ("low", "nominal", "high"); 0 if never.
  double residency(const char* domain, const char* level) const;
  // SMs that drew no energy in the interval (power-gated throughout), from the per-SM list of
  // report.total ("sm"; a kernel's interval has none: throws).
  uint32_t unpowered_sms() const;

  // A field as the report holds it, for copying into a summary unchanged.
  const Json& field(const char* key) const { return field_or_null(j_, key); }
  double number(const char* key) const { return field(key).get<double>(); }

 private:
  const Json& j_;
};

class ReportView {
 public:
  explicit ReportView(const Json& report) : j_(report) {}

  bool present() const { return j_.is_object(); }
  IntervalView total() const { return IntervalView(field(report_key::kTotal)); }
  size_t kernel_count() const { return kernels().size(); }
  IntervalView kernel(size_t i) const { return IntervalView(kernels().at(i)); }
  const Json& kernels() const { return field(report_key::kKernels); }
  const Json& apps() const { return field(report_key::kApps); }

  // The configuration the run used (report.config): its GPU config, policy name, controller implementation.
  const Json& config() const { return field(report_key::kConfig); }
  const Json& gpu_config() const { return field_or_null(config(), "gpu"); }
  std::string policy_name() const;
  std::string controller_impl() const;  // "cpp" unless the config says otherwise

  const Json& policy_trace() const { return field(report_key::kPolicyTrace); }  // null without one
  const Json& voltage_noise() const { return field(report_key::kVoltageNoise); }

  double sim_time_s() const { return total().sim_time_s(); }
  double energy_j() const { return total().energy_j(); }
  const Json& field(const char* key) const { return field_or_null(j_, key); }

 private:
  const Json& j_;
};

// The reports of an experiment's runs, by run id: read from OUT_DIR/runs/ID/report.json,
// or put in by hand (tests). A missing or unreadable report is a null document.
class RunReports {
 public:
  RunReports() = default;
  // Reads OUT_DIR/runs/ID/report.json of each id (null when missing or unreadable).
  void read(const std::string& out_dir, const std::vector<std::string>& ids);
  void add(const std::string& id, Json report);

  ReportView operator[](const std::string& id) const { return ReportView(document(id)); }
  const Json& document(const std::string& id) const;
  bool has(const std::string& id) const { return document(id).is_object(); }
  double time(const std::string& id) const { return (*this)[id].sim_time_s(); }
  double energy(const std::string& id) const { return (*this)[id].energy_j(); }
  const std::vector<std::string>& ids() const { return ids_; }  // in the order they were read or added

 private:
  std::map<std::string, Json> reports_;
  std::vector<std::string> ids_;
};

}  // namespace gpupm
