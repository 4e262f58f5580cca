#include "gpupm/experiment/sm_allocation/sm_allocation.h"

#include "gpupm/common/fnv1a.h"
#include "gpupm/policy/shared/oracle/oracle_search.h"
#include "gpupm/policy/sm_allocation/partition.h"
#include "gpupm/program/workload_scale.h"
#include "gpupm/report/report_writer.h"

#include <filesystem>
#include <set>
#include <stdexcept>

namespace gpupm {

namespace fs = std::filesystem;

std::string profile_id(const std::string& app, uint32_t n) { return "profile__" + app + "__n" + std::to_string(n); }
std::string pair_name(const std::string& a, const std::string& b) { return a + "+" + b; }
std::string pair_id(const std::string& pair, const std::string& policy) { return "pair__" + pair + "__" + policy; }

ProfileSet sm_allocation_profiles(const SmAllocationConfig& c, const RunReports& reports) {
  ProfileSet ps;
  ps.gpu = c.gpu_name;
  ps.sms = c.sms;
  ps.step = c.step;
  ps.thresholds = c.thresholds;
  for (const SmAllocationApp& a : c.used) {
    AppProfile p;
    p.name = a.name;
    for (uint32_t n = c.step; n <= c.sms; n += c.step) {
      const IntervalView t = reports[c.run_id(profile_id(a.name, n))].total();
      ProfilePoint x;
      x.n = n;
      x.time_s = t.sim_time_s();
      x.ipc = t.ipc();
      x.power_w = t.average_power_w();
      x.pow_ef = x.ipc / x.power_w;
      x.dram_gbps = t.number(report_key::kDramBandwidth);
      x.mbu = t.dram_utilisation();
      x.l2_l1_gbps = t.number(report_key::kL2ToL1Bandwidth);
      x.l2_hit_rate = t.l2_hit_rate();
      x.mcr = t.number(report_key::kMemComputeRatio);
      p.points.push_back(x);
    }
    p.opt = best_pow_ef(p.points);
    p.cls = classify(p.points.back(), c.thresholds);
    ps.apps.push_back(p);
  }
  return ps;
}

BuiltQueues sm_allocation_queues(const SmAllocationConfig& c, const ProfileSet& first_gpu) {
  BuiltQueues built = build_queues(c.queues, first_gpu);
  if (built.queues.empty()) {  // a run-time outcome (the classes measured), not bad input
    std::string why;
    for (const std::string& w : built.unbuilt) why += "; " + w;
    throw std::runtime_error("sm-allocation: the measured classes fill none of the queues" + why);
  }
  return built;
}

// Content-addressed, so a run reads the profiles its fingerprint names (a
// re-run with other profiles is a new run); profiles.json is the same text.
ProfilesFile profiles_file(const ProfileSet& ps) {
  ProfilesFile f;
  f.text = profiles_json(ps).dump(2) + "\n";
  f.name = "profiles-" + hex64(fnv1a(f.text)) + ".json";
  f.rel = "profiles/" + f.name;
  return f;
}

QueuePairs sm_allocation_pairs(const SmAllocationConfig& c, const std::vector<SmAllocationQueue>& queues,
                               const ProfileSet& ps) {
  QueuePairs pairs;
  for (const SmAllocationQueue& q : queues) {
    auto cost = [&](size_t i, size_t j) {
      if (q.apps[i] == q.apps[j]) return 1e300;  // an application never pairs with itself
      return pair_slowdown(*ps.find(q.apps[i]), *ps.find(q.apps[j]), c.sms, c.step);
    };
    const auto matched = min_cost_pairs(q.apps.size(), cost);
    const auto fcfs = fcfs_pairs(q.apps.size());
    for (const PolicyRun& p : sm_allocation_policies())
      for (const auto& [i, j] : p.min_slowdown_pairing ? matched : fcfs)
        pairs[q.name][p.key].push_back({q.apps[i], q.apps[j]});
  }
  return pairs;
}

namespace {

void append(std::vector<RunSpec>& to, std::vector<RunSpec> more) {
  for (RunSpec& r : more) to.push_back(std::move(r));
}

// The static point of n SMs (the others power-gated) for every used application.
std::vector<RunSpec> profile_runs(const SmAllocationConfig& c) {
  std::vector<RunSpec> specs;
  for (const SmAllocationApp& a : c.used)
    for (uint32_t n = c.step; n <= c.sms; n += c.step)
      specs.push_back(workload_run(c.run_id(profile_id(a.name, n)), c.gpu, a.file, point_args({{"sms", Json(n)}})));
  return specs;
}

std::string file_of(const SmAllocationConfig& c, const std::string& name) {
  for (const SmAllocationApp& a : c.apps)
    if (a.name == name) return a.file;
  return std::string();
}

// APP as an entry of a pair workload's "apps": its profile's kernels, or its
// program at SCALE (its generated inputs beyond ci) with every file it names
// made absolute (the pair lives elsewhere). `inputs`: the scale's inputs digest.
Json pair_app(const std::string& name, const std::string& file, const std::string& scale, std::string* inputs) {
  const Json declared = load_json_file(file);
  if (!declared.contains("program")) return {{"name", name}, {"kernels", declared.at("kernels")}};
  const ScaledWorkload at_scale = load_workload_at_scale(file, scale);
  if (!at_scale.record.is_null()) *inputs = at_scale.record.value("inputs", std::string());
  Json doc = at_scale.doc;
  const fs::path dir = fs::absolute(fs::path(file).parent_path());
  const fs::path inputs_dir = at_scale.inputs_dir.empty() ? dir : fs::absolute(at_scale.inputs_dir);
  doc.erase("description");
  doc["name"] = name;
  make_workload_paths_absolute(doc, dir.string(), inputs_dir.string());
  return doc;
}

// OUT_DIR/pairs/A+B.json: both applications co-running, the one done first re-spawned.
void write_pair_workload(const SmAllocationConfig& c, const std::string& a, const std::string& b) {
  const std::string pn = pair_name(a, b);
  std::string description = "queue pair: " + a + " and " + b + " co-running, the one done first re-spawned";
  Json apps = Json::array();
  for (const std::string& x : {a, b}) {
    std::string inputs;
    apps.push_back(pair_app(x, file_of(c, x), c.scale, &inputs));
    if (!inputs.empty()) description += "; " + x + " at --scale " + c.scale + ", inputs " + inputs;
  }
  const Json doc = {{"name", pn}, {"description", description}, {"respawn", true}, {"apps", apps}};
  write_outputs(c.out_dir + "/pairs", {{pn + ".json", doc.dump(1) + "\n"}});
}

// The pair runs of QUEUES on C's GPU, after its profiles PS (written beside).
std::vector<RunSpec> pair_runs(const SmAllocationConfig& c, const std::vector<SmAllocationQueue>& queues,
                               const ProfileSet& ps) {
  const ProfilesFile prof = profiles_file(ps);
  fs::create_directories(c.out_dir + "/profiles");
  write_outputs(c.out_dir + "/profiles", {{prof.name, prof.text}});
  write_outputs(c.out_dir, {{profiles_json_name(c), prof.text}});
  const std::string prof_file = fs::absolute(c.out_dir + "/" + prof.rel).string();
  const QueuePairs pairs = sm_allocation_pairs(c, queues, ps);
  std::set<std::string> pair_files, planned;
  fs::create_directories(c.out_dir + "/pairs");
  std::vector<RunSpec> specs;
  for (const SmAllocationQueue& q : queues)
    for (const PolicyRun& p : sm_allocation_policies())
      for (const auto& [a, b] : pairs.at(q.name).at(p.key)) {
        const std::string pn = pair_name(a, b);
        if (pair_files.insert(pn).second) write_pair_workload(c, a, b);
        const std::string id = c.run_id(pair_id(pn, p.policy));
        if (!planned.insert(id).second) continue;
        std::vector<std::string> args = {"--policy", p.policy};
        if (p.profiles) args.insert(args.end(), {"--set", "policy.profiles=" + prof_file});
        auto sets = c.policy_sets.find(p.policy);
        if (sets != c.policy_sets.end()) args.insert(args.end(), sets->second.begin(), sets->second.end());
        specs.push_back(workload_run(id, c.gpu, fs::absolute(c.out_dir + "/pairs/" + pn + ".json").string(), args));
        specs.back().at_scale = true;  // written from the programs at c.scale
      }
  return specs;
}

}  // namespace

std::string profiles_json_name(const SmAllocationConfig& c) {
  return c.label.empty() ? "profiles.json" : c.label + "_profiles.json";
}

// Stage 0: the profiles on each GPU; stage 1: the pairs of the queues built from the first GPU's, on each.
std::vector<RunSpec> SmAllocation::plan(const SmAllocationConfig& c, const RunReports& done, size_t stage) {
  std::vector<RunSpec> specs;
  if (stage == 0) {
    specs = profile_runs(c);
    if (c.pascal) append(specs, profile_runs(*c.pascal));
  } else if (stage == 1) {
    const ProfileSet first_gpu = sm_allocation_profiles(c, done);
    const BuiltQueues built = sm_allocation_queues(c, first_gpu);
    specs = pair_runs(c, built.queues, first_gpu);
    if (c.pascal) append(specs, pair_runs(*c.pascal, built.queues, sm_allocation_profiles(*c.pascal, done)));
  }
  return specs;
}

}  // namespace gpupm
