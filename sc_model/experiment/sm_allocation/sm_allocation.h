// The power-aware SM allocation paper's evaluation (docs/papers.md#sm-allocation-setup
// to #sm-allocation-claims) on the suite of configs/workloads/sm_allocation/: offline profiles
// (each application alone on n = K/12, 2K/12, ..., K SMs), then every queue of
// configs/experiments/sm_allocation.json as pairs under the even split
// (baseline), sm-allocation, ilp-smra, aging-power and perf-aging, each pair
// running until its slower member finishes while the other re-spawns
// ("respawn": true), and sequentially (each application alone on all SMs: the
// profile run at K). Plots: scripts/plot_sm_allocation.py.
#pragma once

#include "gpupm/experiment/claims.h"
#include "gpupm/experiment/experiment_params.h"
#include "gpupm/experiment/runner.h"
#include "gpupm/experiment/sm_allocation/sm_allocation_queues.h"
#include "gpupm/policy/sm_allocation/sm_profiles.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gpupm {

// The concurrent policies, the even split first (the reference of every ratio).
// `key` names the column; sm-allocation-fcfs is an ablation (the paper's
// partition with first come, first served pairs: what the pairing contributes),
// not one of the paper's policies, so it is left out of the rankings.
struct PolicyRun {
  std::string key, policy;
  bool min_slowdown_pairing;  // the ILP-paired methods; the others pair first come, first served
  bool profiles;              // reads policy.profiles
  bool ranked;                // one of the paper's concurrent policies
};
const std::vector<PolicyRun>& sm_allocation_policies();
extern const char kSequential[];  // each application alone on all SMs, one after another

// An application (its class as the config writes it) or, in a real suite, a program (class measured only).
struct SmAllocationApp {
  std::string name, cls, file;
};

struct SmAllocationConfig {
  std::string gpu, suite, out_dir;  // out_dir: where the profiles and pair workloads are written
  // The GPU's role: "" the config's `gpu` (claims C1-C5), "pascal" its `pascal_gpu`
  // (the paper's Pascal column, claim C6), whose run ids and profiles file it prefixes.
  std::string label;
  std::string scale = "ci";  // --scale: the pair workloads are written from the programs at it
  bool real = false;         // programs (configs/workloads/cuda/), no intended class
  ClassThresholds thresholds;
  std::map<std::string, std::vector<std::string>> policy_sets;  // --set policy.k=v per policy
  Json policy_params = Json::object();
  std::vector<SmAllocationApp> apps;      // every application of the suite
  std::vector<SmAllocationQueue> queues;  // as written: a queue to build has no apps yet
  std::vector<SmAllocationApp> used;      // the applications the selected queues use, in suite order
  std::string gpu_name;
  uint32_t sms = 0, step = 0;  // K, and the profiles' step K/12
  ClaimBook claims;
  std::vector<ClaimTarget> targets;  // the headline targets, judged by claims
  // The same experiment on `pascal_gpu` (label "pascal"), null without one. It runs
  // the queues built from this GPU's profiles: the paper runs the same queues on both.
  std::shared_ptr<const SmAllocationConfig> pascal;
  std::string run_id(const std::string& id) const { return label.empty() ? id : label + "__" + id; }
};

// The config as written (configs/experiments/sm_allocation*.json), declared once.
struct SmAllocationAppParams {
  std::string name, cls = "A";
};
// paper_args: the program's paper-scale generator arguments for this experiment
// (its own cuts, the shared workload's scales.paper.args left alone); empty: those.
struct SmAllocationProgramParams : EntryParams {
  std::vector<std::string> paper_args;
};
struct SmAllocationParams : ExperimentParamsBase<> {
  std::string pascal_gpu;
  Json class_thresholds = Json::object();
  std::map<std::string, Json> policy_params;  // by policy; null: not given
  std::vector<SmAllocationAppParams> apps;
  std::vector<SmAllocationProgramParams> programs;
  std::vector<SmAllocationQueue> queues;
};
void describe(ParamVisitor& v, SmAllocationParams& p);

const std::vector<ClaimLimits>& sm_allocation_claim_limits();
std::string profile_id(const std::string& app, uint32_t n);
std::string pair_name(const std::string& a, const std::string& b);
std::string pair_id(const std::string& pair, const std::string& policy);

// The profiles from the profile runs' reports.
ProfileSet sm_allocation_profiles(const SmAllocationConfig& c, const RunReports& reports);
// The queues run: the written ones and those built from FIRST_GPU, the profiles of the config's
// `gpu` (sm_allocation_profiles); none built is a run-time error naming why.
BuiltQueues sm_allocation_queues(const SmAllocationConfig& c, const ProfileSet& first_gpu);
// profiles.json's text and its content-addressed path under the output directory.
struct ProfilesFile {
  std::string text, name, rel;  // rel: "profiles/profiles-HASH.json"
};
ProfilesFile profiles_file(const ProfileSet& ps);
// The profiles' copy at the output directory's top: profiles.json (pascal_profiles.json on `pascal_gpu`).
std::string profiles_json_name(const SmAllocationConfig& c);
// Per queue and policy key: the pairs (queue order inside a pair: the first is App1).
using QueuePairs = std::map<std::string, std::map<std::string, std::vector<std::pair<std::string, std::string>>>>;
QueuePairs sm_allocation_pairs(const SmAllocationConfig& c, const std::vector<SmAllocationQueue>& queues,
                               const ProfileSet& ps);

struct SmAllocation {
  using Config = SmAllocationConfig;
  using Params = SmAllocationParams;
  static Config load(const ExperimentOptions& opt, const std::string& shipped_config);
  // Stage 0: the profiles; stage 1: writes them and the pair workloads, runs the pairs.
  static std::vector<RunSpec> plan(const Config& c, const RunReports& done, size_t stage);
  static ExperimentSummary analyse(const Config& c, const RunReports& reports,
                                   const std::vector<ExperimentRuns>& stages);
};

}  // namespace gpupm
