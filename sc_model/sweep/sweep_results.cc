#include "gpupm/sweep/sweep_results.h"

#include <fstream>
#include <set>
#include <sstream>

namespace gpupm {

const std::vector<std::pair<std::string, std::string>>& result_metric_columns() {
  static const std::vector<std::pair<std::string, std::string>> cols = {
      {"sim_time_s", "/sim_time_s"},
      {"energy_j", "/energy_j/total"},
      {"energy_sm_j", "/energy_j/by_domain/sm"},
      {"energy_mem_j", "/energy_j/by_domain/mem"},
      {"energy_constant_j", "/energy_j/by_domain/constant"},
      {"edp_js", "/edp_js"},
      {"ed2p_js2", "/ed2p_js2"},
      {"ipc", "/ipc"},
      {"average_power_w", "/average_power_w"},
      {"instructions", "/instructions"},
      {"mean_ctas_per_sm", "/mean_ctas_per_sm"},
      {"l1_hit_rate", "/l1_hit_rate"},
      {"l2_hit_rate", "/l2_hit_rate"},
      {"dram_bandwidth_utilisation", "/dram_bandwidth_utilisation"},
  };
  return cols;
}

const std::vector<std::string>& reserved_result_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = {"id", "status", "exit_status", "error", "gpupm_version", "build_id"};
    for (const auto& m : result_metric_columns()) c.push_back(m.first);
    return c;
  }();
  return cols;
}

namespace {

Json read_report(const std::string& dir) {
  std::ifstream f(dir + "/report.json");
  if (!f) return Json();
  Json j = Json::parse(f, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("total") || !j["total"].is_object()) return Json();
  return j;
}

std::string number(const Json& v) { return v.is_number() ? v.dump() : ""; }

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  auto nl = t.find_last_of('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

}  // namespace

std::string build_results_csv(const SweepSpec& spec, const std::map<std::string, RunOutcome>& outcomes) {
  struct Row {
    const SweepPoint* p = nullptr;
    int status = -1;
    Json total;
    Json provenance;  // the report's "gpupm": which build made the run
    std::string error;
  };
  std::vector<Row> rows;
  std::map<std::string, std::set<std::string>> levels;  // V/F residency: domain -> levels, over all reports
  std::map<std::string, Json> reports;                  // by id (points may share a run)
  for (const SweepPoint& p : spec.points) {
    Row r;
    r.p = &p;
    auto it = outcomes.find(p.id);
    if (it == outcomes.end()) {
      r.error = "not run";
    } else {
      r.status = it->second.status;
      if (r.status == 0) {
        auto rep = reports.find(p.id);
        if (rep == reports.end()) rep = reports.emplace(p.id, read_report(it->second.dir)).first;
        if (rep->second.is_null()) {
          r.status = -1;
          r.error = "report.json missing or unreadable";
        } else {
          r.total = rep->second["total"];
          r.provenance = rep->second.value("gpupm", Json::object());
        }
      } else {
        r.error = last_line(it->second.log_tail);
        if (r.error.empty()) r.error = "no output";
      }
    }
    if (r.status == 0 && r.total.contains("vf_residency") && r.total["vf_residency"].is_object())
      for (auto d = r.total["vf_residency"].begin(); d != r.total["vf_residency"].end(); ++d)
        if (d.value().is_object())
          for (auto l = d.value().begin(); l != d.value().end(); ++l) levels[d.key()].insert(l.key());
    rows.push_back(std::move(r));
  }

  CsvWriter csv;
  std::vector<std::string> header = {"id"};
  for (const auto& a : spec.axes) header.push_back(a.name);
  header.insert(header.end(), {"status", "exit_status"});
  for (const auto& m : result_metric_columns()) header.push_back(m.first);
  for (const auto& [d, ls] : levels)
    for (const auto& l : ls) header.push_back("residency_" + d + "_" + l);
  header.insert(header.end(), {"gpupm_version", "build_id", "error"});
  csv.row(header);
  for (const Row& r : rows) {
    std::vector<std::string> f = {r.p->id};
    for (const auto& l : r.p->labels) f.push_back(l);
    f.push_back(r.status == 0 ? "ok" : "failed");
    f.push_back(std::to_string(r.status));
    for (const auto& m : result_metric_columns()) {
      if (r.status != 0) {
        f.push_back("");
        continue;
      }
      Json::json_pointer ptr(m.second);
      f.push_back(r.total.contains(ptr) ? number(r.total.at(ptr)) : "");
    }
    for (const auto& [d, ls] : levels)
      for (const auto& l : ls) {
        if (r.status != 0) {
          f.push_back("");
          continue;
        }
        static const Json none = Json::object();
        const Json& vr = r.total.contains("vf_residency") ? r.total.at("vf_residency") : none;
        f.push_back(vr.contains(d) && vr.at(d).contains(l) ? number(vr.at(d).at(l)) : "0");
      }
    for (const char* key : {"version", "build_id"})
      f.push_back(r.provenance.is_object() ? r.provenance.value(key, std::string()) : std::string());
    f.push_back(r.error);
    csv.row(f);
  }
  return csv.str();
}

}  // namespace gpupm
