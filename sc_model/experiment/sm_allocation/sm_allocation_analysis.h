// What the SM-allocation summary and claims read from the runs' reports: the
// profiles, the pairing model against the even-split runs, per queue and
// policy the totals against the even split, and the claims' counts.
#pragma once

#include "gpupm/experiment/sm_allocation/sm_allocation.h"

namespace gpupm {

// Sums over a queue's runs (pairs one after another, or the apps one by one).
struct Totals {
  double insts = 0, cycles = 0, time_s = 0, energy_j = 0;
  void add(const IntervalView& total) {
    insts += total.instructions();
    cycles += total.sm_cycles();
    time_s += total.sim_time_s();
    energy_j += total.energy_j();
  }
  double throughput() const { return cycles > 0 ? insts / cycles : 0; }
  double power() const { return time_s > 0 ? energy_j / time_s : 0; }
  double efficiency() const { return power() > 0 ? throughput() / power() : 0; }
  // The energy of WORK instructions at these runs' energy per instruction: a queue's energy
  // is that of its own work (each program once), not of the re-spawned passes a policy's
  // pairs add, as the paper's sequential run "completes the same amount of work".
  double energy_for(double work) const { return insts > 0 ? energy_j / insts * work : 0; }
};

struct SmAllocationAnalysis {
  // QUEUES: the first GPU's, on a second GPU (pascal_gpu); null on the first GPU, whose
  // queues are built from its own profiles.
  SmAllocationAnalysis(const SmAllocationConfig& config, const RunReports& reports,
                       const BuiltQueues* queues = nullptr);

  const SmAllocationConfig& config;
  const RunReports& reports;
  ProfileSet profiles;
  const BuiltQueues built;
  ProfilesFile profiles_file;
  QueuePairs pairs;
  std::vector<std::string> labels;  // the policies' keys, then "sequential"
  Json pairing = Json::array();     // predicted vs measured pair slowdown at the even split
  std::vector<double> pairing_err;
  Json queues = Json::object(), pair_json = Json::object(), averages = Json::object();
  std::map<std::string, std::vector<double>> throughput_ratios, power_ratios, efficiency_ratios,
      energy_ratios;  // per policy, over queues
  std::map<std::string, int> best_throughput,
      best_efficiency;  // queues where a policy is best among the concurrent ones
  int seq_below_sa_t = 0, seq_lowest_p = 0, seq_best_pe = 0, seq_below_sa_e = 0, gating_ok = 0, gating_n = 0;
  std::string gating_detail;

  const AppProfile& profile(const std::string& app) const { return *profiles.find(app); }
  const std::vector<SmAllocationQueue>& queues_run() const { return built.queues; }
  IntervalView profile_total(const std::string& app, uint32_t n) const {
    return reports[config.run_id(profile_id(app, n))].total();
  }
  ReportView pair_report(const std::string& pair, const std::string& policy) const {
    return reports[config.run_id(pair_id(pair, policy))];
  }
  double avg(const std::string& label, const char* key) const { return averages[label][key].get<double>(); }

 private:
  std::pair<uint32_t, uint32_t> split_of(const ReportView& r, const std::string& policy) const;
  void add_pairing_model();
  void add_queue(const SmAllocationQueue& q);
  void add_pair_runs(const SmAllocationQueue& q, std::map<std::string, Totals>& tot, Json& qj);
  void rank_queue(std::map<std::string, Totals>& tot, Json& qj);
  void add_averages();
};

// C1-C5 on A (the config's gpu), C6 on PASCAL (its pascal_gpu; null: not judged).
std::vector<Claim> judge_sm_allocation_claims(const SmAllocationAnalysis& a, const SmAllocationAnalysis* pascal);

}  // namespace gpupm
