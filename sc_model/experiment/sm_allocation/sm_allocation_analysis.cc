#include "gpupm/experiment/sm_allocation/sm_allocation_analysis.h"

#include "gpupm/experiment/format_stats.h"
#include "gpupm/policy/sm_allocation/partition.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace gpupm {

namespace {

bool ranked(const std::string& key) {
  for (const PolicyRun& p : sm_allocation_policies())
    if (p.key == key) return p.ranked;
  return false;
}

}  // namespace

SmAllocationAnalysis::SmAllocationAnalysis(const SmAllocationConfig& c, const RunReports& r, const BuiltQueues* q)
    : config(c),
      reports(r),
      profiles(sm_allocation_profiles(c, r)),
      built(q ? *q : sm_allocation_queues(c, profiles)),
      profiles_file(gpupm::profiles_file(profiles)),
      pairs(sm_allocation_pairs(c, built.queues, profiles)) {
  for (const PolicyRun& p : sm_allocation_policies()) labels.push_back(p.key);
  labels.push_back(kSequential);
  add_pairing_model();
  for (const SmAllocationQueue& queue : built.queues) add_queue(queue);
  add_averages();
}

std::pair<uint32_t, uint32_t> SmAllocationAnalysis::split_of(const ReportView& r, const std::string& policy) const {
  const uint32_t K = config.sms;
  const Json& pol = r.config()["policy"];
  if (pol.contains("split")) return {pol["split"][0].get<uint32_t>(), pol["split"][1].get<uint32_t>()};
  if (policy == "ilp-smra" && !r.policy_trace().is_null()) {  // the last split it reached
    std::pair<uint32_t, uint32_t> last = {K / 2, K - K / 2};
    for (const Json& e : r.policy_trace())
      if (e["event"] == "split" || e["event"] == "reassigned")
        last = {e["sms"][0].get<uint32_t>(), e["sms"][1].get<uint32_t>()};
    return last;
  }
  return {K / 2, K - K / 2};
}

// The pairing model against the even-split runs: predicted vs measured pair slowdown
// (each app's first-pass time over its time alone on all K SMs, summed).
void SmAllocationAnalysis::add_pairing_model() {
  const uint32_t K = config.sms;
  std::set<std::string> seen;
  for (const SmAllocationQueue& q : queues_run())
    for (const auto& [a, b] : pairs.at(q.name).at("baseline")) {
      const std::string pn = pair_name(a, b);
      if (!seen.insert(pn).second) continue;
      const Json& apps = pair_report(pn, "baseline").apps();
      double measured = apps[0]["first_pass_s"].get<double>() / profile(a).at(K).time_s +
                        apps[1]["first_pass_s"].get<double>() / profile(b).at(K).time_s;
      double predicted = pair_slowdown(profile(a), profile(b), K, config.step);
      pairing_err.push_back(std::fabs(predicted / measured - 1.0));
      pairing.push_back({{"pair", pn}, {"predicted", predicted}, {"measured", measured}});
    }
}

void SmAllocationAnalysis::add_queue(const SmAllocationQueue& q) {
  std::map<std::string, Totals> tot;
  Json qj = {{"kind", q.kind}, {"apps", q.apps}, {"policies", Json::object()}};
  add_pair_runs(q, tot, qj);
  for (const std::string& a : q.apps) tot[kSequential].add(profile_total(a, config.sms));
  qj["policies"][kSequential] = {{"pairs", Json::array()}};
  rank_queue(tot, qj);
  queues[q.name] = qj;
}

// Each policy's pair runs of queue Q: their totals, splits and C5's gating check.
void SmAllocationAnalysis::add_pair_runs(const SmAllocationQueue& q, std::map<std::string, Totals>& tot, Json& qj) {
  const uint32_t K = config.sms;
  for (const PolicyRun& p : sm_allocation_policies()) {
    Json pj = Json::array();
    for (const auto& [a, b] : pairs.at(q.name).at(p.key)) {
      const std::string pn = pair_name(a, b), id = config.run_id(pair_id(pn, p.policy));
      const ReportView r = pair_report(pn, p.policy);
      const IntervalView t = r.total();
      tot[p.key].add(t);
      auto [k1, k2] = split_of(r, p.policy);
      Json per_app = Json::array();
      for (const Json& x : r.apps())
        per_app.push_back({{"name", x["name"]},
                           {"passes", x["passes"]},
                           {"first_pass_s", x["first_pass_s"]},
                           {"instructions", x["instructions"]}});
      pair_json[id] = {{"pair", pn},
                       {"sms", {k1, k2}},
                       {"time_s", t.field(report_key::kSimTime)},
                       {"ipc", t.field(report_key::kIpc)},
                       {"power_w", t.field(report_key::kAveragePower)},
                       {"energy_j", t.field(report_key::kEnergy)[report_key::kEnergyTotal]},
                       {"apps", per_app}};
      pj.push_back({{"pair", pn}, {"sms", {k1, k2}}});
      if (p.key == "sm-allocation") {  // C5: gating only when opt1 + opt2 < K, as the run's SMs drew power
        const AppProfile &pa = profile(a), &pb = profile(b);
        const uint32_t unpowered = t.unpowered_sms();
        bool gated = unpowered > 0, expect = pa.opt + pb.opt < K;
        ++gating_n;
        gating_ok += gated == expect;
        if (gated != expect)
          gating_detail += pn + " (opt " + std::to_string(pa.opt) + "+" + std::to_string(pb.opt) + ", split " +
                           std::to_string(k1) + "/" + std::to_string(k2) + ", " + std::to_string(unpowered) +
                           " SMs unpowered); ";
      }
    }
    qj["policies"][p.key] = {{"pairs", pj}};
  }
}

// A queue's ratios to the even split, the best concurrent policies and the sequential checks (C4).
void SmAllocationAnalysis::rank_queue(std::map<std::string, Totals>& tot, Json& qj) {
  const Totals& base = tot["baseline"];
  const double work = tot[kSequential].insts;  // the queue's programs, each once
  std::string top_t, top_pe;
  for (const std::string& l : labels) {
    const Totals& t = tot[l];
    double throughput = t.throughput() / base.throughput(), power = t.power() / base.power();
    double efficiency = t.efficiency() / base.efficiency(), energy = t.energy_for(work) / base.energy_for(work);
    qj["policies"][l].update({{"throughput_ipc", t.throughput()},
                              {"power_w", t.power()},
                              {"power_efficiency", t.efficiency()},
                              {"energy_j", t.energy_for(work)},
                              {"runs_energy_j", t.energy_j},
                              {"time_s", t.time_s},
                              {"instructions", t.insts},
                              {"throughput", throughput},
                              {"power", power},
                              {"efficiency", efficiency},
                              {"energy", energy}});
    throughput_ratios[l].push_back(throughput);
    power_ratios[l].push_back(power);
    efficiency_ratios[l].push_back(efficiency);
    energy_ratios[l].push_back(energy);
    if (ranked(l)) {
      if (top_t.empty() || t.throughput() > tot[top_t].throughput()) top_t = l;
      if (top_pe.empty() || t.efficiency() > tot[top_pe].efficiency()) top_pe = l;
    }
  }
  ++best_throughput[top_t];
  ++best_efficiency[top_pe];
  bool lowest_p = true, best_eff = true;
  for (const PolicyRun& p : sm_allocation_policies()) {
    if (!p.ranked) continue;
    lowest_p &= tot[kSequential].power() < tot[p.key].power();
    best_eff &= tot[kSequential].efficiency() > tot[p.key].efficiency();
  }
  seq_below_sa_t += tot[kSequential].throughput() < tot["sm-allocation"].throughput();
  seq_below_sa_e += tot[kSequential].energy_for(work) < tot["sm-allocation"].energy_for(work);
  seq_lowest_p += lowest_p;
  seq_best_pe += best_eff;
  qj["best_throughput"] = top_t;
  qj["best_efficiency"] = top_pe;
}

void SmAllocationAnalysis::add_averages() {
  for (const std::string& l : labels)
    averages[l] = {{"throughput", mean(throughput_ratios[l])},
                   {"power", mean(power_ratios[l])},
                   {"efficiency", mean(efficiency_ratios[l])},
                   {"energy", mean(energy_ratios[l])},
                   {"throughput_geomean", geomean(throughput_ratios[l])},
                   {"efficiency_geomean", geomean(efficiency_ratios[l])},
                   {"best_throughput_queues", best_throughput[l]},
                   {"best_efficiency_queues", best_efficiency[l]}};
}

}  // namespace gpupm
