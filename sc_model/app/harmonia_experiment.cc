// The Harmonia paper's evaluation (specs/core_shutdown_harmonia_sm_allocation.md
// P2.4-P2.7) on the suite of configs/workloads/harmonia/ and the HD7970-like GPU:
// the baseline (boost clock, all CUs, top memory clock), Harmonia, its variants
// (CG only, core DVFS only) and an ED^2 oracle over a static grid of CU count x
// CU clock x memory clock (configs/experiments/harmonia.json), summarised as
// summary.json, summary.md (per-application table, the P2.7 claims) and plots.
//
// The oracle is the paper's: the ED^2-optimal point for every invocation of
// every kernel (from the per-launch records of the static runs), combined into
// the application's time and energy; the best single static point per
// application is reported beside it.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/commands.h"
#include "app/experiment.h"
#include "platform/gpu_config.h"
#include "policy/oracle/oracle_search.h"
#include "workload/kernel_profile.h"

namespace gpupm {

namespace {

struct App {
  std::string name, cls, file;
};

struct Variant {
  std::string name;
  std::vector<std::string> args;  // --policy harmonia --set policy.k=v ...
};

struct Config {
  std::string gpu, suite;
  std::vector<Variant> variants;  // the first one is Harmonia itself
  OracleSpace oracle;
  std::string core_sweep_app;                 // claim 7: that app at all CUs, top memory, every CU clock
  std::vector<std::string> core_sweep_levels;
  std::vector<std::string> stress_apps;       // left out of geomean2 (the paper's MaxFlops, DeviceMemory)
  std::vector<App> apps;
  std::map<std::string, double> sm_mhz, mem_mhz;  // the GPU's level names -> MHz
  uint32_t sms = 0;
};

// A grid point's CU count and clocks (defaults: all CUs, the top levels).
struct PointValues {
  double cus = 0, sm_mhz = 0, mem_mhz = 0;
};
PointValues values_of(const Config& c, const OraclePoint& p) {
  PointValues v{double(c.sms), 0, 0};
  for (const auto& [n, m] : c.sm_mhz) v.sm_mhz = std::max(v.sm_mhz, m);
  for (const auto& [n, m] : c.mem_mhz) v.mem_mhz = std::max(v.mem_mhz, m);
  for (const auto& [k, x] : p) {
    if (k == "sms" && x.get<double>() > 0) v.cus = x.get<double>();
    if (k == "sm_level") v.sm_mhz = c.sm_mhz.at(x.get<std::string>());
    if (k == "mem_level") v.mem_mhz = c.mem_mhz.at(x.get<std::string>());
  }
  return v;
}

std::string fmt(double x, int digits = 1) { return fixed(x, digits); }
std::string id_of(const App& a, const std::string& run) { return a.name + "__" + run; }

std::vector<std::string> param_sets(const Json& params) {
  std::vector<std::string> v;
  for (auto it = params.begin(); it != params.end(); ++it) {
    v.push_back("--set");
    v.push_back("policy." + it.key() + "=" + it.value().dump());
  }
  return v;
}

Config load_config(const ExperimentOptions& opt) {
  Config c;
  SuiteConfig sc = read_suite_config(
      opt, shipped_config_path("harmonia"), "apps",
      [&](JsonReader& r) {
        Json common = Json::object();
        if (r.has("policy_params")) {
          common = r.raw("policy_params");
          if (!common.is_object()) r.fail("policy_params", "expected an object of policy parameters");
        }
        r.for_each("variants", 1, 16, [&](JsonReader& v, size_t) {
          Variant x;
          x.name = v.get_string("name");
          Json params = common;
          if (v.has("params")) {
            const Json& p = v.raw("params");
            if (!p.is_object()) v.fail("params", "expected an object of policy parameters");
            params.update(p);
          }
          x.args = {"--policy", "harmonia"};
          for (const std::string& s : param_sets(params)) x.args.push_back(s);
          c.variants.push_back(x);
        });
        {
          JsonReader o = r.object("oracle");
          c.oracle = parse_oracle_space(o);
          o.finish();
          if (c.oracle.objective.kind != "min_ed2p") r.fail("oracle", "expected the objective {\"kind\": \"min_ed2p\"}");
        }
        if (r.has("core_sweep")) {
          JsonReader s = r.object("core_sweep");
          c.core_sweep_app = s.get_string("app");
          const Json& l = s.raw("sm_levels");
          if (!l.is_array() || l.empty()) s.fail("sm_levels", "expected a non-empty array of SM level names");
          for (const Json& x : l) c.core_sweep_levels.push_back(x.is_string() ? x.get<std::string>() : x.dump());
          s.finish();
        }
        if (r.has("stress_apps")) {
          const Json& l = r.raw("stress_apps");
          if (!l.is_array()) r.fail("stress_apps", "expected an array of application names");
          for (const Json& x : l) c.stress_apps.push_back(x.is_string() ? x.get<std::string>() : x.dump());
        }
      },
      [&](JsonReader& a, const std::string& name, const std::string& profile, bool wanted) {
        App x;
        x.name = name;
        x.cls = a.get_string("class", "");
        x.file = profile;
        if (!wanted) return;
        parse_workload(load_json_file(x.file), x.file, 1);  // fail early on a bad profile
        c.apps.push_back(x);
      });
  c.gpu = sc.gpu;
  c.suite = sc.suite;
  GpuConfig gpu = parse_gpu_config(load_json_file(c.gpu), c.gpu);
  c.sms = gpu.sm.count;
  for (const VfLevel& l : gpu.dvfs[Domain::Sm].levels) c.sm_mhz[l.name] = l.mhz;
  for (const VfLevel& l : gpu.dvfs[Domain::Mem].levels) c.mem_mhz[l.name] = l.mhz;
  for (const OracleAxis& a : c.oracle.axes)
    for (size_t i = 0; i < a.values.size(); ++i) {
      const Json& v = a.values[i];
      const auto& names = a.param == "sm_level" ? c.sm_mhz : c.mem_mhz;
      if ((a.param == "sm_level" || a.param == "mem_level") && (!v.is_string() || !names.count(v.get<std::string>())))
        throw InputError(sc.file, "oracle.axes." + a.param + "[" + std::to_string(i) + "]",
                         "expected a level name of " + c.gpu);
    }
  return c;
}

std::vector<RunSpec> plan_runs(const Config& c) {
  std::vector<RunSpec> specs;
  for (const App& a : c.apps) {
    auto add = [&](const std::string& run, const std::vector<std::string>& extra) {
      specs.push_back(workload_run(id_of(a, run), c.gpu, a.file, extra));
    };
    add("baseline", {"--policy", "baseline"});
    for (const Variant& v : c.variants) add(v.name, v.args);
    for (const OraclePoint& p : c.oracle.points()) add(point_run_name(c.oracle, p), point_args(p));
    if (a.name == c.core_sweep_app)
      for (const std::string& l : c.core_sweep_levels) {
        add("core_" + l, {"--policy", "static-point", "--set", "policy.sm_level=" + l});
        // Control: the same with the L2 on the memory clock (what claim 7's mechanism adds).
        add("core_l2mem_" + l,
            {"--policy", "static-point", "--set", "policy.sm_level=" + l, "--set", "gpu.memory.l2_clock=memory"});
      }
  }
  return specs;
}

struct Outcome {
  double time = 0, energy = 0;
  double ed2p() const { return energy * time * time; }
};

// One launch of a report: (time, energy).
std::vector<Outcome> launches_of(const Json& report) {
  std::vector<Outcome> v;
  for (const Json& k : report["kernels"]) v.push_back({k["sim_time_s"].get<double>(), k["energy_j"]["total"].get<double>()});
  return v;
}

double domain_power(const Json& report, const char* d) {
  return report["total"]["energy_j"]["by_domain"][d].get<double>() / report["total"]["sim_time_s"].get<double>();
}

// What Harmonia's trace says per kernel: configurations, events, convergence.
struct KernelTrace {
  std::vector<Json> ran;           // configuration of each launch
  std::vector<double> us;          // each launch's time
  std::vector<std::string> events;
  int first_cg = -1, last_change = -1;  // launch indices
};

std::map<std::string, KernelTrace> read_trace(const Json& trace) {
  std::map<std::string, KernelTrace> m;
  if (!trace.is_array()) return m;
  for (const Json& e : trace) {
    KernelTrace& k = m[e["kernel"].get<std::string>()];
    int i = int(k.ran.size());
    k.ran.push_back(e["ran"]);
    k.us.push_back(e["kernel_us"].get<double>());
    std::string ev = e["event"].get<std::string>();
    k.events.push_back(ev);
    if (ev == "cg" && k.first_cg < 0) k.first_cg = i;
    if (e["next"] != e["ran"]) k.last_change = i;
  }
  return m;
}

// Time-weighted residency of each tunable's values under Harmonia: {"cus": {"32": 0.9, ...}, ...}.
Json residency(const std::map<std::string, KernelTrace>& ks) {
  Json r = Json::object();
  double total = 0;
  for (const auto& [name, k] : ks)
    for (double t : k.us) total += t;
  for (const char* key : {"cus", "sm_mhz", "mem_mhz"}) {
    std::map<double, double> share;
    for (const auto& [name, k] : ks)
      for (size_t i = 0; i < k.ran.size(); ++i) share[k.ran[i][key].get<double>()] += total > 0 ? k.us[i] / total : 0;
    Json j = Json::object();
    for (auto& [v, s] : share) j[fmt(v, 0)] = s;
    r[key] = j;
  }
  return r;
}


}  // namespace

void check_harmonia_config(const ExperimentOptions& opt) { load_config(opt); }

int run_harmonia_experiment(const ExperimentOptions& opt) {
  Config c = load_config(opt);
  ExperimentRuns runs = run_experiment_runs(plan_runs(c), opt);
  if (!runs.ok) return kExitFailure;
  ExperimentResults R(opt.out_dir);
  const std::vector<OraclePoint> points = c.oracle.points();
  const std::string H = c.variants.front().name;
  const std::set<std::string> stress(c.stress_apps.begin(), c.stress_apps.end());

  Json apps = Json::object();
  std::map<std::string, std::vector<double>> ed2p, energy, speed, speed2, ed2p2;  // per variant (and "oracle")
  std::vector<std::string> names;
  for (const Variant& v : c.variants) names.push_back(v.name);
  names.push_back("oracle");
  names.push_back("static-oracle");
  double sm_saving_w = 0, mem_saving_w = 0;
  std::vector<int> cg_iters, fg_iters;
  std::ostringstream rows;
  Json energy_opt = Json::object();

  for (const App& a : c.apps) {
    const Json& base = R.report(id_of(a, "baseline"));
    const double tb = R.time(id_of(a, "baseline")), eb = R.energy(id_of(a, "baseline"));
    const Outcome ob{tb, eb};
    Json j = {{"class", a.cls},
              {"baseline",
               {{"time_s", tb}, {"energy_j", eb}, {"power_w", eb / tb},
                {"l2_hit_rate", base["total"]["l2_hit_rate"]},
                {"dram_bandwidth_utilisation", base["total"]["dram_bandwidth_utilisation"]}}}};
    auto rel = [&](const Outcome& o) {
      return Json{{"speedup", tb / o.time}, {"energy", o.energy / eb}, {"ed2p", o.ed2p() / ob.ed2p()},
                  {"power", (o.energy / o.time) / (eb / tb)}};
    };
    auto collect = [&](const std::string& n, const Json& r) {
      ed2p[n].push_back(r["ed2p"].get<double>());
      energy[n].push_back(r["energy"].get<double>());
      speed[n].push_back(r["speedup"].get<double>());
      if (!stress.count(a.name)) {
        speed2[n].push_back(r["speedup"].get<double>());
        ed2p2[n].push_back(r["ed2p"].get<double>());
      }
    };
    for (const Variant& v : c.variants) {
      const std::string id = id_of(a, v.name);
      Json r = rel({R.time(id), R.energy(id)});
      std::map<std::string, KernelTrace> kt = read_trace(R.report(id)["policy_trace"]);
      Json final_cfg = Json::object();  // kernels run more than once (not the one-off init)
      for (const auto& [k, t] : kt)
        if (t.ran.size() > 1) final_cfg[k] = t.ran.back();
      r["final"] = final_cfg;
      r["residency"] = residency(kt);
      if (v.name == H) {
        const Json& hr = R.report(id);
        sm_saving_w += domain_power(base, "sm") - domain_power(hr, "sm");
        mem_saving_w += domain_power(base, "mem") - domain_power(hr, "mem");
        Json conv = Json::object();
        for (const auto& [k, t] : kt) {
          if (t.ran.size() < 5 || t.first_cg < 0) continue;  // the paper's iterative kernels
          // Invocations from the first one Harmonia acts on (after the warm-up ones) to the CG
          // decision, then to the last change.
          int warm = 0;
          while (warm < int(t.events.size()) && t.events[size_t(warm)] == "warmup") ++warm;
          int cg = t.first_cg + 1 - warm, fg = std::max(0, t.last_change - t.first_cg);
          cg_iters.push_back(cg);
          fg_iters.push_back(fg);
          conv[k] = {{"cg_iterations", cg}, {"fg_iterations", fg}, {"events", t.events}};
        }
        r["convergence"] = conv;
      }
      collect(v.name, r);
      j[v.name] = r;
    }
    // Oracles over the static grid.
    std::vector<std::vector<Outcome>> per_point;  // [point][launch]
    std::vector<OracleOutcome> whole;
    for (const OraclePoint& p : points) {
      const std::string id = id_of(a, point_run_name(c.oracle, p));
      per_point.push_back(launches_of(R.report(id)));
      whole.push_back({R.time(id), R.energy(id)});
    }
    const size_t nl = per_point.front().size();
    Outcome ko;  // per-launch oracle, combined
    std::map<std::string, std::map<std::string, int>> picks;  // kernel -> point label -> launches
    const Json& kernels = base["kernels"];
    for (size_t l = 0; l < nl; ++l) {
      std::vector<OracleOutcome> xs;
      for (const auto& pp : per_point) xs.push_back({pp[l].time, pp[l].energy});
      int b = oracle_best(c.oracle.objective, {}, xs);
      ko.time += xs[size_t(b)].time_s;
      ko.energy += xs[size_t(b)].energy_j;
      ++picks[kernels[l]["name"].get<std::string>()][point_label(points[size_t(b)])];
    }
    Json ro = rel(ko);
    ro["picks"] = picks;
    collect("oracle", ro);
    j["oracle"] = ro;
    int sb = oracle_best(c.oracle.objective, {}, whole);
    Json rs = rel({whole[size_t(sb)].time_s, whole[size_t(sb)].energy_j});
    rs["point"] = point_label(points[size_t(sb)]);
    collect("static-oracle", rs);
    j["static-oracle"] = rs;
    // Energy-optimal vs ED^2-optimal static points (claim 5).
    OracleObjective min_e{"max_perf_per_w", 0};
    int se = oracle_best(min_e, {}, whole);
    energy_opt[a.name] = {{"energy_optimal", point_label(points[size_t(se)])},
                          {"energy_optimal_slowdown", 1.0 - tb / whole[size_t(se)].time_s},
                          {"energy_optimal_energy", whole[size_t(se)].energy_j / eb},
                          {"ed2p_optimal", rs["point"]},
                          {"ed2p_optimal_slowdown", 1.0 - rs["speedup"].get<double>()},
                          {"ed2p_optimal_energy", rs["energy"]}};
    Json sweep = Json::array();
    for (size_t i = 0; i < points.size(); ++i)
      sweep.push_back({{"point", point_label(points[i])}, {"time_s", whole[i].time_s}, {"energy_j", whole[i].energy_j}});
    j["static_grid"] = sweep;
    apps[a.name] = j;

    rows << "| " << a.name << " | " << a.cls << " | " << fmt(tb * 1e6, 0);
    for (const std::string& n : names)
      rows << " | " << pct(j[n]["ed2p"].get<double>()) << " / " << pct(j[n]["energy"].get<double>()) << " / "
           << pct(j[n]["speedup"].get<double>());
    rows << " | " << rs["point"].get<std::string>() << " |\n";
  }

  // ------------------------------------------------------------- claim 7 material
  Json core_sweep = Json::array();
  if (!c.core_sweep_app.empty()) {
    for (const App& a : c.apps) {
      if (a.name != c.core_sweep_app) continue;
      for (const std::string& l : c.core_sweep_levels) {
        const Json& r = R.report(id_of(a, "core_" + l));
        core_sweep.push_back({{"sm_level", l},
                              {"mhz", c.sm_mhz.count(l) ? c.sm_mhz.at(l) : 0.0},
                              {"time_s", r["total"]["sim_time_s"]},
                              {"time_s_l2_on_memory_clock", R.time(id_of(a, "core_l2mem_" + l))},
                              {"l2_hit_rate", r["total"]["l2_hit_rate"]},
                              {"dram_bandwidth_utilisation", r["total"]["dram_bandwidth_utilisation"]}});
      }
    }
  }

  // ------------------------------------------------------------- claims (P2.7)
  std::vector<Claim> claims;
  auto gm = [&](const std::string& n) { return geomean(ed2p[n]); };
  const std::string CG = c.variants.size() > 1 ? c.variants[1].name : "";
  const std::string DV = c.variants.size() > 2 ? c.variants[2].name : "";
  // C1: compute-bound -> lowest memory clock, no slowdown, ~10% power; bandwidth-bound -> knee compute.
  {
    std::string comp, bw;
    for (const App& a : c.apps)
      if (a.cls.find("H-COMP") != std::string::npos) comp = a.name;
      else if (a.cls.find("H-STREAM") != std::string::npos) bw = a.name;
    if (!comp.empty()) {
      const Json& h = apps[comp][H];
      double lowest = 1e18, low_mem = 1e18;
      for (const auto& [name, mhz] : c.mem_mhz) low_mem = std::min(low_mem, mhz);
      for (auto it = h["final"].begin(); it != h["final"].end(); ++it) lowest = std::min(lowest, it.value()["mem_mhz"].get<double>());
      double sp = h["speedup"].get<double>(), pw = 1.0 - h["power"].get<double>();
      std::string final_mem;
      for (auto it = h["final"].begin(); it != h["final"].end(); ++it) final_mem += fmt(it.value()["mem_mhz"].get<double>(), 0) + " MHz ";
      claims.push_back(judged_claim(
          "C1a", "a compute-bound kernel moves to the lowest memory clock with no slowdown, saving ~10% board power",
          "lowest memory clock, no loss, ~10% power", comp + ": memory " + final_mem + "at the end, performance " + pct(sp) +
              ", board power -" + fmt(pw * 100) + "%",
          "final memory clock = the lowest level, loss <= 1%, power saving 5-15%",
          lowest <= low_mem + 1e-9 && sp >= 0.99 && pw >= 0.05 && pw <= 0.15, "see apps." + comp));
    }
    if (!bw.empty()) {
      // The knee at the top memory clock: the static point with the least CU x MHz within 3% of the best time there.
      double best = 1e18;
      std::vector<std::pair<double, double>> top;  // (CU x MHz, time)
      const Json& grid = apps[bw]["static_grid"];
      double top_mem = 0;
      for (const auto& [name, mhz] : c.mem_mhz) top_mem = std::max(top_mem, mhz);
      for (size_t i = 0; i < points.size(); ++i) {
        PointValues pv = values_of(c, points[i]);
        if (pv.mem_mhz != top_mem) continue;
        double t = grid[i]["time_s"].get<double>();
        best = std::min(best, t);
        top.push_back({pv.cus * pv.sm_mhz, t});
      }
      double knee = 1e18;
      for (auto& [cf, t] : top)
        if (t <= best * 1.03) knee = std::min(knee, cf);
      const Json& h = apps[bw][H];
      double cf_h = 0;
      std::string fin;
      for (auto it = h["final"].begin(); it != h["final"].end(); ++it) {
        const Json& f = it.value();
        cf_h = std::max(cf_h, f["cus"].get<double>() * f["sm_mhz"].get<double>());
        fin += fmt(f["cus"].get<double>(), 0) + " CUs x " + fmt(f["sm_mhz"].get<double>(), 0) + " MHz ";
      }
      double ratio = knee < 1e17 && knee > 0 ? cf_h / knee : 0;
      claims.push_back(judged_claim(
          "C1b", "a bandwidth-bound kernel moves to the knee compute configuration", "knee (ops/byte ~4)",
          bw + ": " + fin + "at the end = " + fmt(ratio, 2) + "x the static knee's CU x MHz at the top memory clock; performance " +
              pct(h["speedup"].get<double>()),
          "within 0.5-2x of the knee, loss <= 3%", ratio >= 0.5 && ratio <= 2.0 && h["speedup"].get<double>() >= 0.97,
          "see apps." + bw + ".static_grid"));
    }
  }
  // C2: geomean ED^2, best on a thrash application, slowdown, oracle gap.
  {
    double g = gm(H), go = gm("oracle");
    double slow = 1.0 - geomean(speed[H]), slow2 = 1.0 - geomean(speed2[H]);
    std::string best_app;
    double best = 2;
    for (const App& a : c.apps)
      if (apps[a.name][H]["ed2p"].get<double>() < best) best = apps[a.name][H]["ed2p"].get<double>(), best_app = a.name;
    claims.push_back(judged_claim("C2a", "geomean ED^2 improvement across the applications", "12% (issue target >= 8%)",
                                  fmt((1 - g) * 100) + "% (geomean2 without the stress apps: " +
                                      fmt((1 - geomean(ed2p2[H])) * 100) + "%)",
                                  ">= 8%", 1 - g >= 0.08, "below 8%"));
    std::string cls = apps[best_app]["class"].get<std::string>();
    claims.push_back(judged_claim("C2b", "the largest ED^2 gain is on a thrash-type application", "36% (BPT)",
                                  fmt((1 - best) * 100) + "% on " + best_app + " (" + cls + ")", "the best application is H-THRASH",
                                  cls.find("THRASH") != std::string::npos, "the best is not a thrash application"));
    claims.push_back(judged_claim("C2c", "average slowdown", "0.36% (geomean2), issue target < 1%",
                                  fmt(slow * 100, 2) + "% (geomean over all), " + fmt(slow2 * 100, 2) + "% (geomean2)",
                                  "< 1% (geomean2)", slow2 < 0.01, "slower than 1% on average"));
    claims.push_back(judged_claim("C2d", "within a few points of an exhaustive ED^2 oracle", "within ~3%, issue target 5 points",
                                  "oracle " + fmt((1 - go) * 100) + "%, Harmonia " + fmt((1 - g) * 100) + "%: gap " +
                                      fmt((g - go) * 100) + " points",
                                  "gap <= 5 points", g - go <= 0.05, "oracle far ahead"));
  }
  // C3: CG only vs FG+CG.
  if (!CG.empty()) {
    double eh = 1 - geomean(energy[H]), ec = 1 - geomean(energy[CG]);
    double sh = 1 - geomean(speed2[H]), sc = 1 - geomean(speed2[CG]);
    double wh = 1 - *std::min_element(speed[H].begin(), speed[H].end());
    double wc = 1 - *std::min_element(speed[CG].begin(), speed[CG].end());
    claims.push_back(judged_claim(
        "C3", "CG alone saves about the same energy but slows down more, with outliers; FG removes them",
        "energy ~same; 2.2% vs 0.36% slowdown, worst 27%",
        "energy saving CG " + fmt(ec * 100) + "% vs FG+CG " + fmt(eh * 100) + "%; slowdown (geomean2) " + fmt(sc * 100, 2) +
            "% vs " + fmt(sh * 100, 2) + "%; worst " + fmt(wc * 100) + "% vs " + fmt(wh * 100) + "%",
        "energy within 3 points; CG slower on average and in the worst case",
        std::fabs(ec - eh) <= 0.03 && sc > sh && wc > wh, "see the table"));
  }
  // C4: core DVFS alone; compute vs memory share of the power saved.
  if (!DV.empty()) {
    double gd = 1 - gm(DV), g = 1 - gm(H);
    double share = sm_saving_w + mem_saving_w > 0 ? sm_saving_w / (sm_saving_w + mem_saving_w) : 0;
    claims.push_back(judged_claim("C4a", "core DVFS alone gives only a small ED^2 gain", "~3% (1% slower)",
                                  fmt(gd * 100) + "% (" + pct(geomean(speed[DV])) + " performance) vs Harmonia " + fmt(g * 100) + "%",
                                  "core DVFS < half of Harmonia's gain", gd < 0.5 * g, "core DVFS too close to Harmonia"));
    claims.push_back(judged_claim("C4b", "the power saved comes mostly from the compute configuration", "64% compute / 36% memory",
                                  fmt(share * 100) + "% compute (CU domain) / " + fmt((1 - share) * 100) + "% memory side",
                                  "compute share 50-80%", share >= 0.5 && share <= 0.8,
                                  "the split is off (the memory side includes the L2 clock energy)"));
  }
  // C5: energy-optimal vs ED^2-optimal static configurations.
  {
    std::vector<std::string> det;
    bool ok = true;
    int n = 0;
    for (const App& a : c.apps) {
      if (a.cls.find("H-MIXED") == std::string::npos && a.cls.find("H-STREAM") == std::string::npos) continue;
      const Json& e = energy_opt[a.name];
      double se = e["energy_optimal_slowdown"].get<double>(), sd = e["ed2p_optimal_slowdown"].get<double>();
      det.push_back(a.name + ": energy-optimal " + e["energy_optimal"].get<std::string>() + " loses " + fmt(se * 100) +
                    "%, ED^2-optimal " + e["ed2p_optimal"].get<std::string>() + " loses " + fmt(sd * 100) + "%");
      ok &= se >= 0.5 && sd <= 0.05;
      ++n;
    }
    if (n)
      claims.push_back(judged_claim("C5", "energy-optimal configurations cost much performance, ED^2-optimal ones little",
                                    "LUD 69%, DeviceMemory 66% vs ~1%", join(det, "; "),
                                    "energy-optimal >= 50% loss, ED^2-optimal <= 5% (static grid)", ok,
                                    "the grid's energy optimum loses less (grid floor: lowest CU count and clocks)"));
  }
  // C6: convergence.
  if (!cg_iters.empty()) {
    auto median = [](std::vector<int> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    int mc = median(cg_iters), mf = median(fg_iters);
    double af = 0;
    for (int x : fg_iters) af += x;
    af /= double(fg_iters.size());
    claims.push_back(judged_claim("C6", "CG converges in about one iteration, FG in 3-4 more", "1 + 3-4",
                                  "median CG " + std::to_string(mc) + " (after the warm-up invocation), FG " +
                                      std::to_string(mf) + " more (mean " + fmt(af) + ") over " +
                                      std::to_string(fg_iters.size()) + " kernels with >= 5 iterations",
                                  "median CG 1, median FG <= 5", mc == 1 && mf <= 5, "slower to converge"));
  }
  // C7: a lower CU clock hurts a memory-bound kernel with a low L2 hit rate, most at low clocks.
  if (core_sweep.size() >= 3) {
    std::vector<double> t, tm;
    for (const Json& p : core_sweep) {
      t.push_back(p["time_s"].get<double>());
      tm.push_back(p["time_s_l2_on_memory_clock"].get<double>());
    }
    double top = t.back();
    std::vector<std::string> det;
    for (size_t i = 0; i < t.size(); ++i) det.push_back(c.core_sweep_levels[i] + " " + pct(top / t[i]));
    det.back() += " (control, L2 on the memory clock: " + c.core_sweep_levels.front() + " " + pct(tm.back() / tm.front()) + ")";
    double low_step = t[0] / t[1] - 1, high_step = t[t.size() - 2] / t.back() - 1;
    double l2 = core_sweep.back()["l2_hit_rate"].get<double>();
    claims.push_back(judged_claim(
        "C7", "lowering the CU clock hurts a memory-bound kernel with a low L2 hit rate, most at low clocks",
        "DeviceMemory: high compute-frequency sensitivity at low f",
        c.core_sweep_app + " (L2 hit rate " + fmt(l2, 2) + "), performance vs the top clock: " + join(det) +
            "; lowest step " + fmt(low_step * 100) + "%, highest step " + fmt(high_step * 100) + "%",
        "slower at the lowest clock by >= 10%, the lowest step costs more than the highest",
        top / t.front() <= 0.9 && low_step > high_step, "no clear low-clock penalty"));
  }

  Json averages = Json::object();
  for (const std::string& n : names)
    averages[n] = {{"ed2p_geomean", geomean(ed2p[n])},
                   {"ed2p_geomean2", geomean(ed2p2[n])},
                   {"energy_geomean", geomean(energy[n])},
                   {"speedup_geomean", geomean(speed[n])},
                   {"speedup_geomean2", geomean(speed2[n])},
                   {"worst_speedup", *std::min_element(speed[n].begin(), speed[n].end())}};
  Json summary = summary_header("harmonia", runs);
  std::vector<std::string> oracle_axes;
  for (const OracleAxis& ax : c.oracle.axes) {
    std::vector<std::string> vals;
    for (const Json& v : ax.values) vals.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    oracle_axes.push_back(ax.param + " {" + join(vals) + "}");
  }
  summary.update({{"variants", names},
                  {"stress_apps", c.stress_apps},
                  {"oracle_grid", oracle_axes},
                  {"apps", apps},
                  {"averages", averages},
                  {"static_optima", energy_opt},
                  {"core_sweep", core_sweep},
                  {"power_saving_w", {{"cu_domain", sm_saving_w}, {"memory_side", mem_saving_w}}},
                  {"claims", claims_json(claims)}});

  std::ostringstream md;
  md << "# Harmonia on gpupm\n\n"
     << runs_sentence(runs) << " HD7970-like GPU (`configs/gpu/hd7970_like.json`), suite `configs/workloads/harmonia/`. "
     << "Per application ED^2 / energy / performance relative to the baseline (boost clock, all CUs, top memory clock). "
     << "`oracle`: the ED^2-optimal static point per kernel invocation over the grid " << join(oracle_axes, " x ")
     << " (the paper's oracle, transitions free); `static-oracle`: the best single grid point per application.\n\n"
     << "| app | class | base us |";
  for (const std::string& n : names) md << " " << n << " ED^2 / energy / perf |";
  md << " static-oracle point |\n|---|---|---|";
  for (size_t i = 0; i < names.size(); ++i) md << "---|";
  md << "---|\n" << rows.str() << "| **geomean** | | |";
  for (const std::string& n : names)
    md << " " << pct(geomean(ed2p[n])) << " / " << pct(geomean(energy[n])) << " / " << pct(geomean(speed[n])) << " |";
  md << " |\n| geomean2 (without " << join(c.stress_apps) << ") | | |";
  for (const std::string& n : names) md << " " << pct(geomean(ed2p2[n])) << " / | / " << pct(geomean(speed2[n])) << " |";
  md << " |\n\n## Claims (specs/core_shutdown_harmonia_sm_allocation.md P2.7)\n\n"
     << claims_markdown(claims)
     << "\nPlots: ed2p.png, energy.png, perf.png, residency.png, core_sweep.png (scripts/plot_harmonia.py).\n";
  write_summary(opt.out_dir, summary, md.str(), "plot_harmonia.py", true);
  return kExitOk;
}

}  // namespace gpupm
