// The power-aware SM allocation paper's evaluation (specs/core_shutdown_harmonia_sm_allocation.md
// P3.2-P3.4) on the suite of configs/workloads/sm_allocation/: offline profiles
// (each application alone on n = K/12, 2K/12, ..., K SMs), then every queue of
// configs/experiments/sm_allocation.json as pairs under the even split
// (baseline), sm-allocation, ilp-smra, aging-power and perf-aging, each pair
// running until its slower member finishes while the other re-spawns
// ("respawn": true), and sequentially (each application alone on all SMs: the
// profile run at K). Summarised as summary.json, summary.md (per-queue table,
// the P3.4 claims) and plots.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/commands.h"
#include "app/experiment.h"
#include "common/fnv1a.h"
#include "platform/gpu_config.h"
#include "policy/oracle/oracle_search.h"
#include "policy/sm_allocation/partition.h"
#include "report/report_writer.h"
#include "workload/kernel_profile.h"

namespace gpupm {

namespace fs = std::filesystem;

namespace {

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
const std::vector<PolicyRun> kPolicies = {
    {"baseline", "baseline", false, false, true},
    {"sm-allocation", "sm-allocation", true, true, true},
    {"ilp-smra", "ilp-smra", true, false, true},
    {"aging-power", "aging-power", false, true, true},
    {"perf-aging", "perf-aging", true, true, true},
    {"sm-allocation-fcfs", "sm-allocation", false, true, false},
};
const std::string kSequential = "sequential";

struct App {
  std::string name, cls, file;
};
struct Queue {
  std::string name, kind;
  std::vector<std::string> apps;
};
struct Config {
  std::string gpu, suite;
  ClassThresholds thresholds;
  std::map<std::string, std::vector<std::string>> policy_sets;  // --set policy.k=v per policy
  Json policy_params = Json::object();
  std::vector<App> apps;  // every application of the suite
  std::vector<Queue> queues;
};

Config load_config(const ExperimentOptions& opt) {
  Config c;
  std::map<std::string, size_t> app_index;
  SuiteConfig sc = read_suite_config(
      opt, shipped_config_path("sm_allocation"), "queues",
      [&](JsonReader& r) {
        c.thresholds = parse_class_thresholds(r, "class_thresholds");
        if (r.has("policy_params")) {
          JsonReader pp = r.object("policy_params");
          for (const PolicyRun& p : kPolicies) {
            if (!pp.has(p.policy) || c.policy_params.contains(p.policy)) continue;
            const Json& o = pp.raw(p.policy);
            if (!o.is_object()) pp.fail(p.policy, "expected an object of policy parameters");
            c.policy_params[p.policy] = o;
            for (auto it = o.begin(); it != o.end(); ++it)
              c.policy_sets[p.policy].insert(c.policy_sets[p.policy].end(),
                                             {"--set", "policy." + it.key() + "=" + it.value().dump()});
          }
          pp.finish();
        }
        r.for_each("apps", 2, 1000, [&](JsonReader& a, size_t i) {
          App x;
          x.name = a.get_string("name");
          x.cls = a.get_enum("class", {"A", "M", "C", "MC"}, "A");
          if (app_index.count(x.name)) a.fail("name", "\"" + x.name + "\" is listed twice");
          app_index[x.name] = i;
          c.apps.push_back(x);
        });
      },
      [&](JsonReader& q, const std::string& name, const std::string&, bool wanted) {
        Queue x;
        x.name = name;
        x.kind = q.get_string("kind", "");
        const Json& list = q.raw("apps");
        if (!list.is_array() || list.size() < 2 || list.size() % 2)
          q.fail("apps", "expected an even number (>= 2) of application names");
        std::map<std::string, size_t> count;
        for (size_t i = 0; i < list.size(); ++i) {
          if (!list[i].is_string() || !app_index.count(list[i].get<std::string>()))
            q.fail("apps", "element " + std::to_string(i) + ": expected the name of an entry of \"apps\"");
          x.apps.push_back(list[i].get<std::string>());
          if (++count[x.apps.back()] > list.size() / 2)
            q.fail("apps", "\"" + x.apps.back() + "\" fills more than half the queue (an app never pairs with itself)");
        }
        for (size_t i = 0; i + 1 < x.apps.size(); i += 2)  // first come, first served pairs
          if (x.apps[i] == x.apps[i + 1])
            q.fail("apps", "elements " + std::to_string(i) + " and " + std::to_string(i + 1) +
                               " are the same application (first come, first served would pair it with itself)");
        if (wanted) c.queues.push_back(x);
      });
  c.gpu = sc.gpu;
  c.suite = sc.suite;
  for (App& a : c.apps) a.file = c.suite + "/" + a.name + ".json";
  return c;
}

std::string profile_id(const std::string& app, uint32_t n) { return "profile__" + app + "__n" + std::to_string(n); }
std::string pair_name(const std::string& a, const std::string& b) { return a + "+" + b; }
std::string pair_id(const std::string& pair, const std::string& policy) { return "pair__" + pair + "__" + policy; }


// Sums over a queue's runs (pairs one after another, or the apps one by one).
struct Totals {
  double insts = 0, cycles = 0, time_s = 0, energy_j = 0;
  void add(const Json& total) {
    insts += total["instructions"].get<double>();
    cycles += total["cycles"]["sm"].get<double>();
    time_s += total["sim_time_s"].get<double>();
    energy_j += total["energy_j"]["total"].get<double>();
  }
  double throughput() const { return cycles > 0 ? insts / cycles : 0; }
  double power() const { return time_s > 0 ? energy_j / time_s : 0; }
  double efficiency() const { return power() > 0 ? throughput() / power() : 0; }
};

}  // namespace

void check_sm_allocation_config(const ExperimentOptions& opt) { load_config(opt); }

int run_sm_allocation_experiment(const ExperimentOptions& opt) {
  Config c = load_config(opt);
  const GpuConfig gpu = parse_gpu_config(load_json_file(c.gpu), c.gpu);
  const uint32_t K = gpu.sm.count;
  if (K % 12)
    throw InputError(c.gpu, "sm.count", "the SM allocation experiment profiles n = K/12, 2K/12, ..., K SMs: expected a multiple of 12");
  const uint32_t step = K / 12;

  // Applications the selected queues use, in suite order.
  std::set<std::string> used_names;
  for (const Queue& q : c.queues) used_names.insert(q.apps.begin(), q.apps.end());
  std::vector<App> used;
  for (const App& a : c.apps)
    if (used_names.count(a.name)) {
      parse_workload(load_json_file(a.file), a.file, 1);  // fail early on a bad profile
      used.push_back(a);
    }

  // ---------------------------------------------------------------- profiles
  std::vector<RunSpec> specs;
  for (const App& a : used)
    for (uint32_t n = step; n <= K; n += step) {  // the static point of n SMs (the others power-gated)
      std::vector<std::string> args = {"--gpu", c.gpu, "--workload", a.file};
      for (const std::string& x : point_args({{"sms", Json(n)}})) args.push_back(x);
      specs.push_back({profile_id(a.name, n), args});
    }
  ExperimentRuns prof_runs = run_experiment_runs(specs, opt);
  if (!prof_runs.ok) return kExitFailure;
  ExperimentResults R(opt.out_dir);
  ProfileSet ps;
  ps.gpu = gpu.name;
  ps.sms = K;
  ps.step = step;
  ps.thresholds = c.thresholds;
  for (const App& a : used) {
    AppProfile p;
    p.name = a.name;
    for (uint32_t n = step; n <= K; n += step) {
      const Json& t = R.report(profile_id(a.name, n))["total"];
      ProfilePoint x;
      x.n = n;
      x.time_s = t["sim_time_s"].get<double>();
      x.ipc = t["ipc"].get<double>();
      x.power_w = t["average_power_w"].get<double>();
      x.pow_ef = x.ipc / x.power_w;
      x.dram_gbps = t["dram_bandwidth_gbps"].get<double>();
      x.mbu = t["dram_bandwidth_utilisation"].get<double>();
      x.l2_l1_gbps = t["l2_to_l1_gbps"].get<double>();
      x.l2_hit_rate = t["l2_hit_rate"].get<double>();
      x.mcr = t["mem_compute_ratio"].get<double>();
      p.points.push_back(x);
    }
    p.opt = best_pow_ef(p.points);
    p.cls = classify(p.points.back(), c.thresholds);
    ps.apps.push_back(p);
  }
  // Content-addressed, so a run reads the profiles its fingerprint names (a
  // re-run with other profiles is a new run); profiles.json is the same text.
  const std::string prof_text = profiles_json(ps).dump(2) + "\n";
  const std::string prof_name = "profiles-" + hex64(fnv1a(prof_text)) + ".json", prof_rel = "profiles/" + prof_name;
  fs::create_directories(opt.out_dir + "/profiles");
  write_outputs(opt.out_dir + "/profiles", {{prof_name, prof_text}});
  write_outputs(opt.out_dir, {{"profiles.json", prof_text}});
  const std::string prof_file = fs::absolute(opt.out_dir + "/" + prof_rel).string();

  // ------------------------------------------------------------------- pairs
  auto profile = [&](const std::string& name) -> const AppProfile& { return *ps.find(name); };
  auto file_of = [&](const std::string& name) {
    for (const App& a : c.apps)
      if (a.name == name) return a.file;
    return std::string();
  };
  // Per queue and policy: the pairs (queue order inside a pair: the first is App1).
  std::map<std::string, std::map<std::string, std::vector<std::pair<std::string, std::string>>>> pairs;
  std::set<std::string> pair_files;
  fs::create_directories(opt.out_dir + "/pairs");
  std::vector<RunSpec> pair_specs;
  std::set<std::string> planned;
  for (const Queue& q : c.queues) {
    auto cost = [&](size_t i, size_t j) {
      if (q.apps[i] == q.apps[j]) return 1e300;  // an application never pairs with itself
      return pair_slowdown(profile(q.apps[i]), profile(q.apps[j]), K, step);
    };
    const auto matched = min_cost_pairs(q.apps.size(), cost);
    const auto fcfs = fcfs_pairs(q.apps.size());
    for (const PolicyRun& p : kPolicies) {
      for (const auto& [i, j] : p.min_slowdown_pairing ? matched : fcfs) {
        const std::string &a = q.apps[i], &b = q.apps[j];
        const std::string pn = pair_name(a, b);
        pairs[q.name][p.key].push_back({a, b});
        const std::string wl = opt.out_dir + "/pairs/" + pn + ".json";
        if (pair_files.insert(pn).second) {
          Json doc = {{"name", pn},
                      {"description", "queue pair: " + a + " and " + b + " co-running, the one done first re-spawned"},
                      {"respawn", true},
                      {"apps", Json::array()}};
          for (const std::string& x : {a, b})
            doc["apps"].push_back({{"name", x}, {"kernels", load_json_file(file_of(x)).at("kernels")}});
          write_outputs(opt.out_dir + "/pairs", {{pn + ".json", doc.dump(1) + "\n"}});
        }
        const std::string id = pair_id(pn, p.policy);
        if (!planned.insert(id).second) continue;
        std::vector<std::string> args = {"--gpu", c.gpu, "--workload", fs::absolute(wl).string(), "--policy", p.policy};
        if (p.profiles) args.insert(args.end(), {"--set", "policy.profiles=" + prof_file});
        auto ps_it = c.policy_sets.find(p.policy);
        if (ps_it != c.policy_sets.end()) args.insert(args.end(), ps_it->second.begin(), ps_it->second.end());
        pair_specs.push_back({id, args});
      }
    }
  }
  ExperimentRuns pair_runs = run_experiment_runs(pair_specs, opt);
  if (!pair_runs.ok) return kExitFailure;
  ExperimentRuns runs = prof_runs;  // both batches, for the header
  runs.outcomes.insert(runs.outcomes.end(), pair_runs.outcomes.begin(), pair_runs.outcomes.end());
  runs.reused += pair_runs.reused;
  runs.wall_seconds += pair_runs.wall_seconds;

  // ----------------------------------------------------------------- results
  auto split_of = [&](const std::string& id, const std::string& policy) -> std::pair<uint32_t, uint32_t> {
    const Json& r = R.report(id);
    if (r["config"]["policy"].contains("split")) {
      const Json& s = r["config"]["policy"]["split"];
      return {s[0].get<uint32_t>(), s[1].get<uint32_t>()};
    }
    if (policy == "ilp-smra" && r.contains("policy_trace")) {  // the last split it reached
      std::pair<uint32_t, uint32_t> last = {K / 2, K - K / 2};
      for (const Json& e : r["policy_trace"])
        if (e["event"] == "split" || e["event"] == "reassigned")
          last = {e["sms"][0].get<uint32_t>(), e["sms"][1].get<uint32_t>()};
      return last;
    }
    return {K / 2, K - K / 2};
  };
  // The pairing model against the even-split runs: predicted vs measured pair slowdown
  // (each app's first-pass time over its time alone on all K SMs, summed).
  Json pairing = Json::array();
  std::vector<double> pairing_err;
  std::set<std::string> seen_pairs;
  for (const Queue& q : c.queues)
    for (const auto& [a, b] : pairs[q.name]["baseline"]) {
      const std::string pn = pair_name(a, b);
      if (!seen_pairs.insert(pn).second) continue;
      const Json& apps_r = R.report(pair_id(pn, "baseline"))["apps"];
      double measured = apps_r[0]["first_pass_s"].get<double>() / profile(a).at(K).time_s +
                        apps_r[1]["first_pass_s"].get<double>() / profile(b).at(K).time_s;
      double predicted = pair_slowdown(profile(a), profile(b), K, step);
      pairing_err.push_back(std::fabs(predicted / measured - 1.0));
      pairing.push_back({{"pair", pn}, {"predicted", predicted}, {"measured", measured}});
    }
  Json queues = Json::object(), pair_json = Json::object();
  std::map<std::string, std::vector<double>> ratio_t, ratio_p, ratio_e, ratio_energy;  // per policy, over queues
  std::map<std::string, int> best_t, best_pe;  // queues where a policy is best among the concurrent ones
  int seq_below_sa_t = 0, seq_lowest_p = 0, seq_best_pe = 0, seq_below_sa_e = 0, gating_ok = 0, gating_n = 0;
  std::string gating_detail;
  std::ostringstream rows;
  std::vector<std::string> all_labels;
  for (const PolicyRun& p : kPolicies) all_labels.push_back(p.key);
  all_labels.push_back(kSequential);
  for (const Queue& q : c.queues) {
    std::map<std::string, Totals> tot;
    Json qj = {{"kind", q.kind}, {"apps", q.apps}, {"policies", Json::object()}};
    for (const PolicyRun& p : kPolicies) {
      Json pj = Json::array();
      for (const auto& [a, b] : pairs[q.name][p.key]) {
        const std::string pn = pair_name(a, b), id = pair_id(pn, p.policy);
        const Json& r = R.report(id);
        tot[p.key].add(r["total"]);
        auto [k1, k2] = split_of(id, p.policy);
        Json per_app = Json::array();
        for (const Json& x : r["apps"])
          per_app.push_back({{"name", x["name"]}, {"passes", x["passes"]}, {"first_pass_s", x["first_pass_s"]},
                             {"instructions", x["instructions"]}});
        Json e = {{"pair", pn}, {"sms", {k1, k2}}, {"time_s", r["total"]["sim_time_s"]},
                  {"ipc", r["total"]["ipc"]}, {"power_w", r["total"]["average_power_w"]},
                  {"energy_j", r["total"]["energy_j"]["total"]}, {"apps", per_app}};
        pj.push_back({{"pair", pn}, {"sms", {k1, k2}}});
        pair_json[id] = e;
        if (p.key == "sm-allocation") {  // C5: gating only when opt1 + opt2 < K
          const AppProfile &pa = profile(a), &pb = profile(b);
          bool gated = k1 + k2 < K, expect = pa.opt + pb.opt < K;
          ++gating_n;
          gating_ok += gated == expect;
          if (gated != expect)
            gating_detail += pn + " (opt " + std::to_string(pa.opt) + "+" + std::to_string(pb.opt) + ", split " +
                             std::to_string(k1) + "/" + std::to_string(k2) + "); ";
        }
      }
      qj["policies"][p.key] = {{"pairs", pj}};
    }
    for (const std::string& a : q.apps) tot[kSequential].add(R.report(profile_id(a, K))["total"]);
    qj["policies"][kSequential] = {{"pairs", Json::array()}};
    const Totals& base = tot["baseline"];
    std::string top_t, top_pe;
    for (const std::string& l : all_labels) {
      const Totals& t = tot[l];
      double rt = t.throughput() / base.throughput(), rp = t.power() / base.power();
      double re = t.efficiency() / base.efficiency(), ren = t.energy_j / base.energy_j;
      qj["policies"][l].update({{"throughput_ipc", t.throughput()}, {"power_w", t.power()},
                                {"power_efficiency", t.efficiency()}, {"energy_j", t.energy_j}, {"time_s", t.time_s},
                                {"instructions", t.insts}, {"throughput", rt}, {"power", rp},
                                {"efficiency", re}, {"energy", ren}});
      ratio_t[l].push_back(rt);
      ratio_p[l].push_back(rp);
      ratio_e[l].push_back(re);
      ratio_energy[l].push_back(ren);
      auto ranked = std::find_if(kPolicies.begin(), kPolicies.end(), [&](const PolicyRun& p) { return p.key == l; });
      if (ranked != kPolicies.end() && ranked->ranked) {
        if (top_t.empty() || t.throughput() > tot[top_t].throughput()) top_t = l;
        if (top_pe.empty() || t.efficiency() > tot[top_pe].efficiency()) top_pe = l;
      }
    }
    ++best_t[top_t];
    ++best_pe[top_pe];
    bool lowest_p = true, best_eff = true;
    for (const PolicyRun& p : kPolicies) {
      if (!p.ranked) continue;
      lowest_p &= tot[kSequential].power() < tot[p.key].power();
      best_eff &= tot[kSequential].efficiency() > tot[p.key].efficiency();
    }
    seq_below_sa_t += tot[kSequential].throughput() < tot["sm-allocation"].throughput();
    seq_below_sa_e += tot[kSequential].energy_j < tot["sm-allocation"].energy_j;
    seq_lowest_p += lowest_p;
    seq_best_pe += best_eff;
    qj["best_throughput"] = top_t;
    qj["best_efficiency"] = top_pe;
    queues[q.name] = qj;
    rows << "| " << q.name << " | ";
    for (const auto& [a, b] : pairs[q.name]["sm-allocation"]) {
      auto [k1, k2] = split_of(pair_id(pair_name(a, b), "sm-allocation"), "sm-allocation");
      rows << a << "+" << b << " " << k1 << "/" << k2 << "; ";
    }
    rows << "|";
    for (const std::string& l : all_labels) {
      if (l == "baseline") continue;
      const Json& x = qj["policies"][l];
      rows << " " << pct(x["throughput"].get<double>()) << " / " << pct(x["power"].get<double>()) << " / "
           << pct(x["efficiency"].get<double>()) << " / " << pct(x["energy"].get<double>()) << " |";
    }
    rows << "\n";
  }
  const size_t nq = c.queues.size();
  Json averages = Json::object();
  for (const std::string& l : all_labels)
    averages[l] = {{"throughput", mean(ratio_t[l])}, {"power", mean(ratio_p[l])}, {"efficiency", mean(ratio_e[l])},
                   {"energy", mean(ratio_energy[l])}, {"throughput_geomean", geomean(ratio_t[l])},
                   {"efficiency_geomean", geomean(ratio_e[l])},
                   {"best_throughput_queues", best_t[l]}, {"best_efficiency_queues", best_pe[l]}};

  // Per-application profile summary and the class check.
  Json apps = Json::object();
  std::ostringstream app_rows;
  int class_match = 0;
  for (const App& a : used) {
    const AppProfile& p = profile(a.name);
    const ProfilePoint& full = p.points.back();
    bool match = p.cls == a.cls;
    class_match += match;
    apps[a.name] = {{"intended_class", a.cls}, {"class", p.cls}, {"opt", p.opt},
                    {"pow_ef_at_opt", p.at(p.opt).pow_ef}, {"full_gpu", {{"ipc", full.ipc}, {"mbu", full.mbu},
                    {"l2_hit_rate", full.l2_hit_rate}, {"l2_l1_gbps", full.l2_l1_gbps}, {"mcr", full.mcr},
                    {"power_w", full.power_w}}}};
    uint32_t best_ipc_n = p.points.front().n;
    for (const ProfilePoint& x : p.points)
      if (x.ipc > p.at(best_ipc_n).ipc) best_ipc_n = x.n;
    app_rows << "| " << a.name << " | " << a.cls << " | " << p.cls << (match ? "" : " (**differs**)") << " | "
             << fixed(full.mbu, 2) << " | " << fixed(full.l2_hit_rate, 2) << " | " << fixed(full.l2_l1_gbps, 0)
             << " | " << fixed(full.mcr, 3) << " | " << best_ipc_n << " | " << p.opt << " | "
             << fixed(p.at(p.opt).pow_ef * 1e3, 1) << " | " << fixed(full.pow_ef * 1e3, 1) << " |\n";
  }

  // ------------------------------------------------------------ claims (P3.4)
  auto avg = [&](const std::string& l, const char* k) { return averages[l][k].get<double>(); };
  std::vector<Claim> claims;
  const double t_sa = avg("sm-allocation", "throughput"), e_sa = avg("sm-allocation", "efficiency");
  const double p_sa = avg("sm-allocation", "power"), en_sa = avg("sm-allocation", "energy");
  int higher_everywhere = 0;
  for (double r : ratio_t["sm-allocation"]) higher_everywhere += r > 1.0;
  claims.push_back(judged_claim(
      "C1a", "profile-driven asymmetric partitioning beats the even split on throughput (issue target >= +10%)",
      "+25% (Fermi)", pct(t_sa) + " (mean over " + std::to_string(nq) + " queues; geomean " +
                          pct(geomean(ratio_t["sm-allocation"])) + ")",
      ">= +10%", t_sa >= 1.10, "below +10%: see the per-queue table"));
  claims.push_back(judged_claim("C1b", "... and on power efficiency (throughput / W) (issue target >= +5%)",
                                "+11% (Pascal), ~+10%", pct(e_sa) + " (mean)", ">= +5%", e_sa >= 1.05, "below +5%"));
  claims.push_back(judged_claim("C1c", "... at higher average power and lower energy", "power +11% (Fermi), energy -9% (Pascal)",
                                "power " + pct(p_sa) + ", energy " + pct(en_sa), "power > 0%, energy < 0%",
                                p_sa > 1.0 && en_sa < 1.0, "power not higher or energy not lower"));
  claims.push_back(judged_claim("C1d", "higher throughput than the even split on every queue", "every queue (both GPUs)",
                                std::to_string(higher_everywhere) + "/" + std::to_string(nq) + " queues",
                                "all queues", higher_everywhere == int(nq), "lower on some queues"));
  const double t_smra = avg("ilp-smra", "throughput"), e_smra = avg("ilp-smra", "efficiency");
  claims.push_back(judged_claim("C2", "static profile-based allocation beats reactive reallocation (ILP-SMRA-like)",
                                "+18% throughput, +16% power efficiency (Fermi)",
                                pct(t_sa / t_smra) + " throughput, " + pct(e_sa / e_smra) +
                                    " power efficiency (ratio of the means vs even split)",
                                "both > 0%", t_sa > t_smra && e_sa > e_smra, "the reactive policy is ahead"));
  const double t_ap = avg("aging-power", "throughput"), e_ap = avg("aging-power", "efficiency");
  claims.push_back(judged_claim("C3", "allocating by optimal IPC/W beats min-time allocation with an 8% IPC-loss margin (aging-power-like)",
                                "+16% throughput (Pascal), +18% power efficiency (Pascal)",
                                pct(t_sa / t_ap) + " throughput, " + pct(e_sa / e_ap) + " power efficiency",
                                "both > 0%", t_sa > t_ap && e_sa > e_ap, "aging-power is ahead"));
  const double t_pa = avg("perf-aging", "throughput"), e_pa = avg("perf-aging", "efficiency");
  claims.push_back(judged_claim("C3b", "power-aware allocation beats the performance-and-aging-aware one on power efficiency",
                                "+12% power efficiency (Fermi), +3% throughput (Pascal)",
                                pct(e_sa / e_pa) + " power efficiency, " + pct(t_sa / t_pa) + " throughput",
                                "power efficiency > 0%", e_sa > e_pa, "perf-aging is ahead on power efficiency"));
  claims.push_back(judged_claim("C3c", "best throughput and best power efficiency among the concurrent policies on most queues",
                                "7/9 and 7/9 (Fermi); 5/9 and 6/9 (Pascal)",
                                std::to_string(best_t["sm-allocation"]) + "/" + std::to_string(nq) + " and " +
                                    std::to_string(best_pe["sm-allocation"]) + "/" + std::to_string(nq),
                                ">= 7/9 of the queues each (scaled to the queues run)",
                                best_t["sm-allocation"] * 9 >= 7 * int(nq) && best_pe["sm-allocation"] * 9 >= 7 * int(nq),
                                "best on fewer queues"));
  const std::string of_nq = "/" + std::to_string(nq) + " queues";
  claims.push_back(judged_claim("C4a", "sequential execution has lower throughput than sm-allocation on every queue",
                                "all queues", std::to_string(seq_below_sa_t) + of_nq, "all queues",
                                seq_below_sa_t == int(nq), "sequential is faster on some queue"));
  claims.push_back(judged_claim("C4b", "sequential execution has the lowest average power of all policies on every queue",
                                "all queues", std::to_string(seq_lowest_p) + of_nq + " (mean power vs even split: sequential " +
                                    pct(avg(kSequential, "power")) + ", sm-allocation " + pct(p_sa) + ", aging-power " +
                                    pct(avg("aging-power", "power")) + ")",
                                "all queues", seq_lowest_p == int(nq),
                                "policies that gate SMs draw less than one application alone on all SMs"));
  claims.push_back(judged_claim("C4c", "... so sequential has the best power efficiency on about half the queues",
                                "5/9 (Fermi), 6/9 (Pascal)", std::to_string(seq_best_pe) + of_nq,
                                "4/9 to 7/9 (scaled)", seq_best_pe * 9 >= 4 * int(nq) && seq_best_pe * 9 <= 7 * int(nq),
                                "outside 4-7 of 9"));
  claims.push_back(judged_claim("C4d", "sequential uses less energy than sm-allocation on most queues",
                                "sm-allocation lower on only 4/9 (Fermi)", std::to_string(seq_below_sa_e) + of_nq,
                                ">= 5/9 (scaled)", seq_below_sa_e * 9 >= 5 * int(nq), "sm-allocation lower on most queues"));
  claims.push_back(judged_claim("C5", "SMs are gated only when opt1 + opt2 < K", "by construction (Algorithm 1)",
                                std::to_string(gating_ok) + "/" + std::to_string(gating_n) + " sm-allocation pairs",
                                "all pairs", gating_ok == gating_n, gating_detail));
  claims.push_back(na_claim("C6", "the Pascal results (e.g. -10% power and -8% energy against ILP-SMRA, +16% throughput "
                                  "against Aging & Power)",
                            "Pascal: 64 warps, 32 blocks per SM, 4 MB L2",
                            "only the Fermi-like 60-SM configuration is modelled here"));

  Json summary = summary_header("sm-allocation", runs);
  summary.update({{"gpu", gpu.name}, {"sms", K}, {"step", step},
                  {"profiles", prof_rel}, {"class_thresholds", class_thresholds_json(c.thresholds)},
                  {"policy_params", c.policy_params}, {"policies", all_labels}, {"apps", apps},
                  {"queue_order", [&] {
                     Json o = Json::array();
                     for (const Queue& q : c.queues) o.push_back(q.name);
                     return o;
                   }()},
                  {"queues", queues},
                  {"pairs", pair_json}, {"pairing_model", pairing}, {"averages", averages},
                  {"claims", claims_json(claims)}});
  std::ostringstream md;
  md << "# Power-aware SM allocation on gpupm\n\n" << runs_sentence(runs) << " " << K << "-SM GPU (`" << gpu.name
     << "`), profiles at n = " << step << ", " << 2 * step << ", ..., " << K << " SMs (`" << prof_rel
     << "`), suite `configs/workloads/sm_allocation/`. Each pair runs until its slower member finishes, the other "
        "re-spawned meanwhile; a queue's throughput is its instructions over its SM cycles (pairs one after another), "
        "its power the energy over the time. Ratios are against the even split (`baseline`, "
     << K / 2 << "/" << K - K / 2 << ").\n\n## Applications (profiles)\n\n"
     << "| app | intended class | class (on " << K << " SMs) | MBU | L2 hit | L2->L1 GB/s | MCR | best-IPC n | opt (best IPC/W) | "
        "IPC/W at opt (x1e3) | IPC/W at " << K << " |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
     << app_rows.str() << "\nClasses (on " << K << " SMs): A if MBU < " << fixed(c.thresholds.active_mbu, 2)
     << " and L2->L1 < " << fixed(c.thresholds.active_l2_l1_gbps, 0) << " GB/s; otherwise C if the L2 hit rate is >= "
     << fixed(c.thresholds.cache_l2_hit, 2) << ", MC if >= " << fixed(c.thresholds.mixed_l2_hit, 2) << ", else M. "
     << class_match << "/" << used.size()
     << " applications land in their intended class.\n\n## Queues (throughput / power / power efficiency / energy vs even split)\n\n"
     << "| queue | sm-allocation pairs (SMs) |";
  for (const std::string& l : all_labels)
    if (l != "baseline") md << " " << l << " |";
  md << "\n|---|---|";
  for (size_t i = 1; i < all_labels.size(); ++i) md << "---|";
  md << "\n" << rows.str() << "| **mean** | |";
  for (const std::string& l : all_labels) {
    if (l == "baseline") continue;
    md << " " << pct(avg(l, "throughput")) << " / " << pct(avg(l, "power")) << " / " << pct(avg(l, "efficiency"))
       << " / " << pct(avg(l, "energy")) << " |";
  }
  md << "\n\nBest throughput among the concurrent policies (queues):";
  for (const PolicyRun& p : kPolicies)
    if (p.ranked) md << " " << p.key << " " << best_t[p.key] << ";";
  md << " best power efficiency:";
  for (const PolicyRun& p : kPolicies)
    if (p.ranked) md << " " << p.key << " " << best_pe[p.key] << ";";
  md << "\n\nPairing (sm-allocation, ilp-smra, perf-aging: exhaustive minimum predicted slowdown; even split and "
        "aging-power: first come, first served): the predicted pair slowdown at the even split is off by "
     << fixed(mean(pairing_err) * 100, 0) << "% on average (max "
     << fixed(pairing_err.empty() ? 0.0 : *std::max_element(pairing_err.begin(), pairing_err.end()) * 100, 0)
     << "%) against the " << pairing_err.size() << " even-split pair runs (`pairing_model` in summary.json). "
     << "With the even split's first come, first served pairs the partition alone (sm-allocation-fcfs) gives "
     << pct(avg("sm-allocation-fcfs", "throughput")) << " throughput and " << pct(avg("sm-allocation-fcfs", "efficiency"))
     << " power efficiency; the rest of sm-allocation's gain is the pairing's.";
  md << "\n\n## Claims (specs/core_shutdown_harmonia_sm_allocation.md P3.4)\n\n" << claims_markdown(claims)
     << "\nPlots: throughput.png, power.png, efficiency.png, energy.png, profiles.png (scripts/plot_sm_allocation.py).\n";
  write_summary(opt.out_dir, summary, md.str(), "plot_sm_allocation.py", true);
  return kExitOk;
}

}  // namespace gpupm
