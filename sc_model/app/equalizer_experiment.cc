// The Equalizer paper's evaluation (specs/equalizer.md sections 2.5-2.11, 3.5, 4)
// on the 27-kernel suite: static points, Equalizer in both modes, CTA sweeps,
// CTA-only Equalizer and DynCTA on the cache kernels.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "app/commands.h"
#include "app/experiment.h"
#include "report/report_writer.h"
#include "workload/kernel_profile.h"

namespace gpupm {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kPolicies = {"baseline", "sm-high", "sm-low", "mem-high", "mem-low",
                                            "equalizer-perf", "equalizer-energy"};
const std::vector<std::string> kCategories = {"compute", "memory", "cache", "unsaturated"};

struct Kernel {
  std::string name, category, file;
  double fraction = 0;
  uint32_t w_cta = 0, max_ctas = 0, launches = 0;
};

std::string fmt(double x, int digits = 3) { return fixed(x, digits); }


std::string id_of(const Kernel& k, const std::string& what) { return k.name + "__" + what; }

std::vector<Kernel> load_kernels(const ExperimentOptions& opt, std::string& gpu) {
  std::vector<Kernel> ks;
  SuiteConfig c = read_suite_config(
      opt, shipped_config_path("equalizer"), "kernels", [](JsonReader&) {},
      [&](JsonReader& kr, const std::string& name, const std::string& profile, bool wanted) {
        Kernel k;
        k.name = name;
        k.category = kr.get_enum("category", kCategories, "compute");
        k.fraction = kr.get_double("kernel_fraction", 0.0, 1.0, 0.0);
        k.file = profile;
        if (!wanted) return;
        Workload w = parse_workload(load_json_file(k.file), k.file, 1);
        const KernelLaunch& l = *w.launches.front();
        k.w_cta = l.warps_per_cta;
        k.max_ctas = std::min({l.max_ctas_per_sm, 8u, 48u / l.warps_per_cta});
        k.launches = uint32_t(w.launches.size());
        ks.push_back(k);
      });
  gpu = c.gpu;
  return ks;
}

std::vector<RunSpec> plan_runs(const std::vector<Kernel>& ks, const std::string& gpu) {
  std::vector<RunSpec> specs;
  for (const Kernel& k : ks) {
    auto add = [&](const std::string& id, const std::string& policy, std::vector<std::string> extra = {}) {
      std::vector<std::string> args = {"--gpu", gpu, "--workload", k.file, "--policy", policy};
      args.insert(args.end(), extra.begin(), extra.end());
      specs.push_back({id_of(k, id), args});
    };
    for (const auto& p : kPolicies) add(p, p);
    for (uint32_t n = 1; n <= k.max_ctas; ++n)
      add("ctas" + std::to_string(n), "static", {"--set", "policy.ctas_per_sm=" + std::to_string(n)});
    if (k.category == "cache" || k.name == "spmv-1") {
      add("dyncta", "dyncta");
      add("eqcta", "equalizer-perf", {"--set", "policy.dvfs=false"});
    }
  }
  return specs;
}

// --------------------------------------------------------------- analysis

struct Analysis {
  const std::vector<Kernel>& ks;
  ExperimentResults& R;
  Json kernels = Json::object();
  std::map<std::string, std::map<std::string, std::vector<double>>> speed, energy;  // category -> policy -> values
  size_t lockstep_runs = 0;  // runs made with the controllers in lockstep (C4)

  double sp(const Kernel& k, const std::string& p) { return R.time(id_of(k, "baseline")) / R.time(id_of(k, p)); }
  double en(const Kernel& k, const std::string& p) { return R.energy(id_of(k, p)) / R.energy(id_of(k, "baseline")); }
  const Json& total(const Kernel& k, const std::string& p) { return R.report(id_of(k, p))["total"]; }
  double ws(const Kernel& k, const char* f) { return total(k, "baseline")["warp_states"][f].get<double>(); }
  double res(const Kernel& k, const std::string& p, const char* d, const char* level) {
    return total(k, p)["vf_residency"][d].value(level, 0.0);
  }
  // Energy mode's static best (spec 2.5): SM-low or mem-low within 5% of
  // baseline performance, the one saving more; else baseline.
  std::string static_best(const Kernel& k) {
    std::string best = "baseline";
    for (const char* p : {"sm-low", "mem-low"})
      if (sp(k, p) >= 0.95 && en(k, p) < (best == "baseline" ? 1.0 : en(k, best))) best = p;
    return best;
  }
  int best_ctas(const Kernel& k) {
    int best = 1;
    for (uint32_t n = 1; n <= k.max_ctas; ++n)
      if (R.time(id_of(k, "ctas" + std::to_string(n))) < R.time(id_of(k, "ctas" + std::to_string(best)))) best = int(n);
    return best;
  }
  // Sum over a kernel's launches of the fastest static CTA count for each
  // launch (from the CTA sweep); `bests` collects the winning counts.
  double per_invocation_optimum(const Kernel& k, std::set<int>* bests = nullptr) {
    size_t n = R.report(id_of(k, "ctas1"))["kernels"].size();
    double opt = 0;
    for (size_t i = 0; i < n; ++i) {
      double best = 1e9;
      int arg = 0;
      for (uint32_t m = 1; m <= k.max_ctas; ++m) {
        double t = R.report(id_of(k, "ctas" + std::to_string(m)))["kernels"][i]["sim_time_s"].get<double>();
        if (t < best) best = t, arg = int(m);
      }
      opt += best;
      if (bests) bests->insert(arg);
    }
    return opt;
  }
  const Kernel* find(const std::string& name) {
    for (const Kernel& k : ks)
      if (k.name == name) return &k;
    return nullptr;
  }

  void per_kernel() {
    for (const Kernel& k : ks) {
      Json s = Json::object(), e = Json::object(), r = Json::object();
      for (const auto& p : kPolicies) {
        s[p] = sp(k, p);
        e[p] = en(k, p);
        r[p] = total(k, p)["vf_residency"];
      }
      std::string sb = static_best(k);
      s["static-best"] = sp(k, sb);
      e["static-best"] = en(k, sb);
      Json sweep = Json::object();
      for (uint32_t n = 1; n <= k.max_ctas; ++n) sweep[std::to_string(n)] = R.time(id_of(k, "ctas" + std::to_string(n)));
      const Json& b = total(k, "baseline");
      kernels[k.name] = {{"category", k.category},
                         {"w_cta", k.w_cta},
                         {"max_ctas", k.max_ctas},
                         {"baseline", {{"time_s", b["sim_time_s"]}, {"energy_j", b["energy_j"]["total"]},
                                       {"warp_states", b["warp_states"]}, {"l1_hit_rate", b["l1_hit_rate"]}}},
                         {"speedup", s},
                         {"energy", e},
                         {"static_best_energy_mode", sb},
                         {"vf_residency", r},
                         {"cta_sweep_time_s", sweep},
                         {"best_static_ctas", best_ctas(k)}};
      for (const std::string& cat : {k.category, std::string("all")}) {
        for (auto it = s.begin(); it != s.end(); ++it) speed[cat][it.key()].push_back(it.value().get<double>());
        for (auto it = e.begin(); it != e.end(); ++it) energy[cat][it.key()].push_back(it.value().get<double>());
      }
    }
  }
  double gs(const std::string& cat, const std::string& p) { return geomean(speed[cat][p]); }
  double ge(const std::string& cat, const std::string& p) { return geomean(energy[cat][p]); }
  bool has_cat(const std::string& cat) { return !speed[cat].empty(); }
};


// D-claims read the Equalizer trace: per epoch num_blocks[] and levels.
struct TraceChecks {
  int block_violations = 0, level_jumps = 0, five_state_violations = 0, mode_violations = 0;
};

TraceChecks check_traces(Analysis& A) {
  TraceChecks t;
  for (const Kernel& k : A.ks) {
    for (const char* p : {"equalizer-perf", "equalizer-energy"}) {
      const Json& tr = A.R.report(id_of(k, p))["policy_trace"];
      if (!tr.is_array() || tr.empty()) continue;
      bool perf = std::string(p) == "equalizer-perf";
      std::vector<int> last_change(tr[0]["num_blocks"].size(), -100);
      for (size_t e = 0; e < tr.size(); ++e) {
        int sl = tr[e]["sm_level"].get<int>(), ml = tr[e]["mem_level"].get<int>();
        if (sl != 1 && ml != 1) ++t.five_state_violations;
        if (perf ? (sl == 0 || ml == 0) : (sl == 2 || ml == 2)) ++t.mode_violations;
        if (e == 0) continue;
        if (std::abs(sl - tr[e - 1]["sm_level"].get<int>()) > 1 || std::abs(ml - tr[e - 1]["mem_level"].get<int>()) > 1)
          ++t.level_jumps;
        if (k.launches > 1) continue;  // kernel starts reload numBlocks
        for (size_t i = 0; i < last_change.size(); ++i) {
          int d = tr[e]["num_blocks"][i].get<int>() - tr[e - 1]["num_blocks"][i].get<int>();
          if (d == 0) continue;
          if (std::abs(d) > 1 || int(e) - last_change[i] < 3) ++t.block_violations;
          last_change[i] = int(e);
        }
      }
    }
  }
  return t;
}

// Mean numBlocks over SMs per epoch of a run's trace.
std::vector<double> mean_blocks(const Json& trace) {
  std::vector<double> v;
  if (!trace.is_array()) return v;
  for (const Json& e : trace) {
    double s = 0;
    for (const Json& b : e["num_blocks"]) s += b.get<double>();
    v.push_back(e["num_blocks"].empty() ? 0.0 : s / double(e["num_blocks"].size()));
  }
  return v;
}

std::vector<Claim> judge(Analysis& A) {
  std::vector<Claim> c;
  auto cat_ok = [&](std::initializer_list<const char*> cats) {
    for (const char* x : cats)
      if (!A.has_cat(x)) return false;
    return true;
  };
  auto skip = [&](const char* id, const char* text) { c.push_back(na_claim(id, text, "-", "category not in this run (--only)")); };
  // Static sensitivity
  if (cat_ok({"compute", "memory", "cache"})) {
    double cs = A.gs("compute", "sm-high"), ms = A.gs("memory", "sm-high"), ks = A.gs("cache", "sm-high");
    c.push_back(judged_claim("S1", "SM +15% speeds compute up ~ the clock; memory/cache < +5%", "compute ~+13.8%",
                     "compute " + pct(cs) + ", memory " + pct(ms) + ", cache " + pct(ks), "compute >= +10%, others < +5%",
                     cs >= 1.10 && ms < 1.05 && ks < 1.05, "see per-kernel table"));
    double cl = A.gs("compute", "sm-low"), ml = A.gs("memory", "sm-low"), kl = A.gs("cache", "sm-low");
    double me = A.ge("memory", "sm-low"), ke = A.ge("cache", "sm-low");
    c.push_back(judged_claim("S2", "SM -15% costs compute more than memory/cache; their efficiency rises", "quadrant 4",
                     "perf compute " + pct(cl) + ", memory " + pct(ml) + ", cache " + pct(kl) + "; energy memory " +
                         pct(me) + ", cache " + pct(ke),
                     "direction", cl < ml && cl < kl && me < 1.0 && ke < 1.0, "direction not met"));
    double cm = A.gs("compute", "mem-high"), cme = A.ge("compute", "mem-high"), mm = A.gs("memory", "mem-high"),
           km = A.gs("cache", "mem-high");
    c.push_back(judged_claim("S3", "DRAM +15%: compute ~0 speed-up and ~+5% energy; memory/cache speed up",
                     "compute 0 / +5% energy; cache ~+17%",
                     "compute " + pct(cm) + " / energy " + pct(cme) + "; memory " + pct(mm) + ", cache " + pct(km),
                     "compute within 2%, energy up; others > +5%",
                     std::fabs(cm - 1) < 0.02 && cme > 1.0 && mm > 1.05 && km > 1.05, "direction not met"));
    double cd = A.gs("compute", "mem-low"), cde = A.ge("compute", "mem-low"), md = A.gs("memory", "mem-low"),
           kd = A.gs("cache", "mem-low");
    c.push_back(judged_claim("S4", "DRAM -15%: compute ~unchanged and more efficient; memory/cache lose", "compute 0 / -5% energy",
                     "compute " + pct(cd) + " / energy " + pct(cde) + "; memory " + pct(md) + ", cache " + pct(kd),
                     "compute within 2%, energy down; others < 0", std::fabs(cd - 1) < 0.02 && cde < 1.0 && md < 1.0 && kd < 1.0,
                     "direction not met"));
    int bad_max = 0, plateau = 0, mem_n = 0, cache_below = 0, cache_n = 0;
    for (const Kernel& k : A.ks) {
      int b = A.best_ctas(k);
      double tmax = A.R.time(id_of(k, "ctas" + std::to_string(k.max_ctas)));
      double tbest = A.R.time(id_of(k, "ctas" + std::to_string(b)));
      if ((k.category == "compute" || k.category == "memory") && tmax > 1.02 * tbest) ++bad_max;
      if (k.category == "memory" && k.max_ctas >= 2) {
        ++mem_n;
        uint32_t half = std::max(1u, k.max_ctas / 2);
        if (A.R.time(id_of(k, "ctas" + std::to_string(half))) <= 1.05 * tmax) ++plateau;
      }
      if (k.category == "cache") {
        ++cache_n;
        if (b < int(k.max_ctas)) ++cache_below;
      }
    }
    c.push_back(judged_claim("S5", "compute/memory best at max CTAs (memory plateaus by max/2); cache best below max",
                     "Fig. 1e, 5",
                     std::to_string(bad_max) + " compute/memory kernels >2% off max; " + std::to_string(plateau) + "/" +
                         std::to_string(mem_n) + " memory plateau; " + std::to_string(cache_below) + "/" +
                         std::to_string(cache_n) + " cache best < max",
                     "all", bad_max == 0 && plateau == mem_n && cache_below == cache_n, "see cta_sweep_time_s"));
  } else {
    for (const char* id : {"S1", "S2", "S3", "S4", "S5"}) skip(id, "static sensitivity");
  }
  if (const Kernel* bfs = A.find("bfs-1")) {
    std::set<int> bests;
    double opt = A.per_invocation_optimum(*bfs, &bests);
    double fixed = A.R.time(id_of(*bfs, "ctas" + std::to_string(bfs->max_ctas)));
    c.push_back(judged_claim("S6", "bfs: best CTA count differs across invocations; per-invocation optimum beats static max",
                     "3->1->3, +16%", std::to_string(bests.size()) + " distinct best counts, optimum " + pct(fixed / opt),
                     ">= 2 counts, >= +8%", bests.size() >= 2 && fixed / opt >= 1.08, "invocations too alike"));
  } else {
    skip("S6", "bfs per-invocation optimum");
  }
  // Counter signatures at max CTAs (baseline)
  {
    int c1 = 0, c1n = 0, c2 = 0, c2n = 0, c3 = 0, c3n = 0;
    for (const Kernel& k : A.ks) {
      double xa = A.ws(k, "excess_alu"), xm = A.ws(k, "excess_mem"), wt = A.ws(k, "waiting"), ac = A.ws(k, "active");
      if (k.category == "compute") c1n++, c1 += xa > k.w_cta;
      if (k.category == "memory" || k.category == "cache") c2n++, c2 += xm > 2;
      if (k.category == "unsaturated") c3n++, c3 += (xa <= k.w_cta && xm <= 2 && wt > ac / 2);
    }
    c.push_back(judged_claim("C1", "compute kernels: avg X_alu > W_cta", "Fig. 4", std::to_string(c1) + "/" + std::to_string(c1n),
                     "all", c1 == c1n, "see kernels.*.baseline.warp_states"));
    c.push_back(judged_claim("C2", "memory and cache kernels: avg X_mem > 2", "Fig. 4", std::to_string(c2) + "/" + std::to_string(c2n),
                     "all", c2 == c2n, "see kernels.*.baseline.warp_states"));
    c.push_back(judged_claim("C3", "unsaturated: X_alu <= W_cta, X_mem <= 2, waiting > active/2", "Fig. 4",
                     std::to_string(c3) + "/" + std::to_string(c3n), "all", c3 == c3n, "see kernels.*.baseline.warp_states"));
    if (A.lockstep_runs > 0)  // every run compared RTL and C++ each cycle; a mismatch exits 1 and fails the experiment
      c.push_back(judged_claim("C4", "RTL and golden model agree on sums, decisions and votes", "bit-exact",
                       std::to_string(A.lockstep_runs) + " Equalizer runs in lockstep, 0 mismatches", "0 mismatches", true, ""));
    else
      c.push_back(na_claim("C4", "RTL and golden model agree on sums, decisions and votes", "bit-exact",
                     "judged only in lockstep: --set gpu.controller_impl=lockstep (rtl/README.md)"));
  }
  // Performance mode
  auto perf_claim = [&](const char* id, const char* cat, const char* paper, double lo, double hi) {
    if (!A.has_cat(cat)) return skip(id, cat);
    double s = A.gs(cat, "equalizer-perf"), e = A.ge(cat, "equalizer-perf");
    c.push_back(judged_claim(id, std::string(cat) + " kernels, performance mode", paper, pct(s) + " perf, " + pct(e) + " energy",
                     "perf in [" + pct(lo) + ", " + pct(hi) + "]", s >= lo && s <= hi, "magnitude off"));
  };
  perf_claim("P1", "compute", "+13.8% perf, +15% energy", 1.09, 1.18);
  perf_claim("P2", "memory", "+12.4% perf, +11% energy", 1.06, 1.20);
  if (A.has_cat("cache")) {
    double s = A.gs("cache", "equalizer-perf"), m = A.gs("cache", "mem-high"), e = A.ge("cache", "equalizer-perf");
    const Kernel* kmn = A.find("kmn-1");
    double ks = kmn ? A.sp(*kmn, "equalizer-perf") : 0.0;
    c.push_back(judged_claim("P3", "cache kernels gain more than the memory boost alone, and save energy; kmeans most",
                     "+54% vs +17%, -11% energy; kmn 2.84x",
                     pct(s) + " vs " + pct(m) + ", energy " + pct(e) + "; kmn " + fmt(ks, 2) + "x",
                     "eq > mem-high, energy < 0, kmn >= 1.5x", s > m && e < 1.0 && ks >= 1.5, "see cache rows"));
  } else {
    skip("P3", "cache");
  }
  {
    double s = A.gs("all", "equalizer-perf"), sh = A.gs("all", "sm-high"), mh = A.gs("all", "mem-high");
    double e = A.ge("all", "equalizer-perf"), she = A.ge("all", "sm-high"), mhe = A.ge("all", "mem-high");
    c.push_back(judged_claim("P4", "overall: Equalizer beats SM-high and mem-high in speed-up and energy",
                     "+22% vs +7%, +6%; energy +6% vs +12%, +7%",
                     pct(s) + " vs " + pct(sh) + ", " + pct(mh) + "; energy " + pct(e) + " vs " + pct(she) + ", " + pct(mhe),
                     "eq best on both", s > sh && s > mh && e < she && e < mhe, "see overall table"));
  }
  if (const Kernel* p2 = A.find("prtcl-2")) {
    double hi = A.res(*p2, "equalizer-perf", "sm", "high");
    c.push_back(judged_claim("P5", "imbalanced kernel (prtcl-2) ends up SM-high through idle SMs' votes", "SM high",
                     "SM high " + fmt(hi * 100, 0) + "% of time", "> 50%", hi > 0.5, "idle SMs did not carry the vote"));
  } else {
    skip("P5", "prtcl-2");
  }
  if (const Kernel* l1 = A.find("leuko-1")) {
    double mh = A.res(*l1, "equalizer-perf", "mem", "high"), s = A.sp(*l1, "equalizer-perf");
    c.push_back(judged_claim("P6", "texture-like leuko-1 is not detected as memory-bound: no memory boost, no gain",
                     "no gain", "mem high " + fmt(mh * 100, 0) + "% of time, " + pct(s), "mem high < 20%, < +5%",
                     mh < 0.2 && s < 1.05, "our LSU sees its back-pressure (no texture path)"));
  } else {
    skip("P6", "leuko-1");
  }
  {
    int ok = 0, n = 0;
    std::string m;
    for (const char* name : {"mri-g-1", "sc-1"}) {
      const Kernel* k = A.find(name);
      if (!k) continue;
      ++n;
      double s = A.sp(*k, "equalizer-perf");
      double best = std::max({1.0, A.sp(*k, "sm-high"), A.sp(*k, "mem-high")});
      double smh = A.res(*k, "equalizer-perf", "sm", "high"), mmh = A.res(*k, "equalizer-perf", "mem", "high");
      m += std::string(name) + " " + pct(s) + " (best static " + pct(best) + ", SM-high " + fmt(smh * 100, 0) +
           "%, mem-high " + fmt(mmh * 100, 0) + "%) ";
      ok += s > best && smh > 0 && mmh > 0;
    }
    if (n)
      c.push_back(judged_claim("P7", "phase kernels beat the best static point, using both boosts", "Fig. 7, 9", m, "all",
                       ok == n, "see residency"));
    else
      skip("P7", "phase kernels");
  }
  // Energy mode
  auto energy_claim = [&](const char* id, const char* cat, const char* paper, double min_perf, double max_energy) {
    if (!A.has_cat(cat)) return skip(id, cat);
    double s = A.gs(cat, "equalizer-energy"), e = A.ge(cat, "equalizer-energy");
    c.push_back(judged_claim(id, std::string(cat) + " kernels, energy mode", paper, pct(s) + " perf, " + pct(e) + " energy",
                     "perf >= " + pct(min_perf) + ", energy <= " + pct(max_energy), s >= min_perf && e <= max_energy,
                     "magnitude off"));
  };
  energy_claim("E1", "compute", "-0.1% perf, -5% energy", 0.98, 0.98);
  energy_claim("E2", "memory", "-2.5% perf, -11% energy", 0.94, 0.95);
  energy_claim("E3", "cache", "+30% perf, -36% energy", 1.05, 0.85);
  energy_claim("E4", "unsaturated", "-1.3% perf, -6.4% energy", 0.95, 0.99);
  {
    double s = A.gs("all", "equalizer-energy"), e = A.ge("all", "equalizer-energy");
    double sl = A.gs("all", "sm-low"), ml = A.gs("all", "mem-low"), sbe = A.ge("all", "static-best");
    c.push_back(judged_claim("E5", "overall energy mode: better performance than SM-low and mem-low, more savings than static best",
                     "+5% perf, -15% energy; static best -8%",
                     pct(s) + " perf (SM-low " + pct(sl) + ", mem-low " + pct(ml) + "), " + pct(e) + " energy (static best " +
                         pct(sbe) + ")",
                     "direction", s > sl && s > ml && e < sbe, "see overall table"));
  }
  // Control dynamics
  TraceChecks t = check_traces(A);
  c.push_back(judged_claim("D1", "numBlocks changes by one, at most once per 3 epochs", "hysteresis",
                   std::to_string(t.block_violations) + " violations", "0", t.block_violations == 0, "see traces"));
  c.push_back(judged_claim("D2", "each domain moves at most one level per epoch", "gradual", std::to_string(t.level_jumps) + " jumps",
                   "0", t.level_jumps == 0, "see traces"));
  c.push_back(na_claim("D3", "SM V/F change completes 512 SM cycles after the decision", "512 cycles",
                 "checked exactly by FrequencyManagerTest (transition timing) and VoteArbiterTest (busy window)"));
  c.push_back(judged_claim("D4", "joint state within the five; perf never low, energy never high", "5 states",
                   std::to_string(t.five_state_violations) + " + " + std::to_string(t.mode_violations) + " violations", "0",
                   t.five_state_violations + t.mode_violations == 0, "see traces"));
  c.push_back(na_claim("D5", "after a decrease, finished CTAs unpause paused ones before new dispatch", "CTA pausing",
                 "checked by GwdeTest (pause youngest, unpause before dispatch)"));
  {
    std::string m;
    bool ok = true;
    int parts = 0;
    if (const Kernel* bfs = A.find("bfs-1")) {
      ++parts;
      double opt = A.per_invocation_optimum(*bfs);
      double eq = A.R.time(id_of(*bfs, "eqcta"));
      m += "bfs CTA-only Equalizer " + fmt(eq / opt, 3) + "x the per-invocation optimum; ";
      ok &= eq / opt <= 1.10;
    }
    if (const Kernel* sp = A.find("spmv-1")) {
      ++parts;
      auto eq = mean_blocks(A.R.report(id_of(*sp, "eqcta"))["policy_trace"]);
      auto dy = mean_blocks(A.R.report(id_of(*sp, "dyncta"))["policy_trace"]);
      bool eq_down_up = false, dy_only_down = !dy.empty();
      if (!eq.empty()) {
        auto mn = std::min_element(eq.begin(), eq.end());
        eq_down_up = *mn < eq.front() && eq.back() > *mn + 0.5;
      }
      if (!dy.empty()) dy_only_down = dy.back() <= *std::min_element(dy.begin(), dy.end()) + 0.5 && dy.back() < dy.front();
      m += std::string("spmv: Equalizer ") + (eq_down_up ? "lowers then raises" : "does not lower-then-raise") +
           " CTAs, DynCTA " + (dy_only_down ? "only lowers" : "does not only lower");
      ok &= eq_down_up && dy_only_down;
    }
    if (parts)
      c.push_back(judged_claim("D6", "bfs: Equalizer near the per-invocation optimum; spmv: Equalizer lowers then raises CTAs, DynCTA only lowers",
                       "Fig. 11", m, "<= 1.10x; directions", ok, "see traces"));
    else
      skip("D6", "bfs/spmv");
  }
  if (A.has_cat("cache")) {
    std::vector<double> eq, dy;
    std::string close;
    for (const Kernel& k : A.ks) {
      if (k.category != "cache") continue;
      eq.push_back(A.sp(k, "eqcta"));
      dy.push_back(A.sp(k, "dyncta"));
      if (k.name == "bp-2" || k.name == "kmn-1") close += k.name + " " + fmt(A.sp(k, "eqcta") / A.sp(k, "dyncta"), 3) + " ";
    }
    double ge = geomean(eq), gd = geomean(dy);
    c.push_back(judged_claim("D7", "CTA control alone on cache kernels: Equalizer >= DynCTA-like, close on bp-2 and kmn",
                     "Equalizer better; close on stable kernels",
                     "Equalizer " + pct(ge) + " vs DynCTA-like " + pct(gd) + "; ratio " + close, "eq >= 0.98 x DynCTA",
                     ge >= 0.98 * gd, "DynCTA-like ahead"));
  } else {
    skip("D7", "cache");
  }
  return c;
}

std::string table_md(Analysis& A, const std::vector<std::string>& cols) {
  std::ostringstream md;
  md << "| category |";
  for (const auto& p : cols) md << " " << p << " speed-up | " << p << " energy |";
  md << "\n|---|";
  for (size_t i = 0; i < cols.size(); ++i) md << "---|---|";
  md << "\n";
  for (const char* cat : {"compute", "memory", "cache", "unsaturated", "all"}) {
    if (!A.has_cat(cat)) continue;
    md << "| " << cat << " |";
    for (const auto& p : cols) md << " " << pct(A.gs(cat, p)) << " | " << pct(A.ge(cat, p)) << " |";
    md << "\n";
  }
  return md.str();
}

}  // namespace

void check_equalizer_config(const ExperimentOptions& opt) {
  std::string gpu;
  load_kernels(opt, gpu);
}

int run_equalizer_experiment(const ExperimentOptions& opt) {
  std::string gpu;
  std::vector<Kernel> ks = load_kernels(opt, gpu);
  ExperimentRuns runs = run_experiment_runs(plan_runs(ks, gpu), opt);
  if (!runs.ok) return kExitFailure;
  const std::vector<RunOutcome>& outcomes = runs.outcomes;
  ExperimentResults R(opt.out_dir);
  Analysis A{ks, R, Json::object(), {}, {}, 0};
  A.per_kernel();
  for (const auto& o : outcomes) {  // C4: the runs whose policy drove the controller blocks in lockstep
    const Json& cfg = R.report(o.id)["config"];
    A.lockstep_runs += cfg["policy"].value("name", "").rfind("equalizer", 0) == 0 &&
                       cfg["gpu"].value("controller_impl", "cpp") == "lockstep";
  }
  std::vector<Claim> claims = judge(A);
  auto target = [&](const char* what, bool ok, std::string m) { return Json{{"target", what}, {"measured", m}, {"pass", ok}}; };
  double ps = A.gs("all", "equalizer-perf"), pe = A.ge("all", "equalizer-perf");
  double es = A.gs("all", "equalizer-energy"), ee = A.ge("all", "equalizer-energy");
  Json targets = Json::array(
      {target("performance mode: geomean speed-up >= +15% (paper +22%)", ps >= 1.15, pct(ps)),
       target("performance mode: energy increase <= +10% (paper +6%)", pe <= 1.10, pct(pe)),
       target("performance mode beats static SM-high and memory-high on speed-up and energy",
              ps > A.gs("all", "sm-high") && ps > A.gs("all", "mem-high") && pe < A.ge("all", "sm-high") &&
                  pe < A.ge("all", "mem-high"),
              "see overall table"),
       target("energy mode: saving >= 10% (paper 15%)", ee <= 0.90, pct(ee)),
       target("energy mode: geomean performance >= -2% (paper +5%)", es >= 0.98, pct(es)),
       target("energy mode beats the static best", ee < A.ge("all", "static-best") && es >= A.gs("all", "static-best"),
              pct(ee) + " vs " + pct(A.ge("all", "static-best")))});
  Json cats = Json::object();
  for (const char* cat : {"compute", "memory", "cache", "unsaturated", "all"}) {
    if (!A.has_cat(cat)) continue;
    Json row = Json::object();
    for (auto& [p, v] : A.speed[cat]) row[p] = {{"speedup", geomean(v)}, {"energy", geomean(A.energy[cat][p])}, {"n", v.size()}};
    cats[cat] = row;
  }
  Json summary = summary_header("equalizer", runs);
  summary["kernels"] = A.kernels;
  summary["geomean_by_category"] = cats;
  summary["targets"] = targets;
  summary["claims"] = claims_json(claims);
  std::ostringstream md;
  md << "# Equalizer on gpupm\n\n" << runs_sentence(runs) << " Speed-up and energy are geometric means relative to the baseline.\n\n"
     << "## Performance mode (paper Fig. 7)\n\n" << table_md(A, {"sm-high", "mem-high", "equalizer-perf"})
     << "\n## Energy mode (paper Fig. 8)\n\n" << table_md(A, {"sm-low", "mem-low", "static-best", "equalizer-energy"})
     << "\n## Targets\n\n| target | measured | verdict |\n|---|---|---|\n";
  for (const Json& t : targets)
    md << "| " << t["target"].get<std::string>() << " | " << t["measured"].get<std::string>() << " | "
       << (t["pass"].get<bool>() ? "pass" : "**FAIL**") << " |\n";
  md << "\n## Claims (specs/equalizer.md section 4)\n\n" << claims_markdown(claims) << "\n## Per kernel\n\n"
     << "| kernel | category | eq-perf | eq-perf energy | eq-energy | eq-energy energy | SM-high | mem-high | best CTAs / max |\n"
     << "|---|---|---|---|---|---|---|---|---|\n";
  for (const Kernel& k : ks) {
    const Json& j = A.kernels[k.name];
    md << "| " << k.name << " | " << k.category << " | " << pct(j["speedup"]["equalizer-perf"]) << " | "
       << pct(j["energy"]["equalizer-perf"]) << " | " << pct(j["speedup"]["equalizer-energy"]) << " | "
       << pct(j["energy"]["equalizer-energy"]) << " | " << pct(j["speedup"]["sm-high"]) << " | "
       << pct(j["speedup"]["mem-high"]) << " | " << j["best_static_ctas"].get<int>() << " / " << k.max_ctas << " |\n";
  }
  md << "\nPlots: speedup.png, energy.png, residency.png (scripts/plot_equalizer.py).\n";
  write_summary(opt.out_dir, summary, md.str(), "plot_equalizer.py", false);
  return kExitOk;
}

}  // namespace gpupm
