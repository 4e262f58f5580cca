// The core shut-down paper's claims (docs/papers.md#core-shutdown-claims)
// judged on the runs; each claim's text and tolerance come from the config.
#include "experiment/core_shutdown/core_shutdown_analysis.h"

#include "experiment/format_stats.h"

#include <algorithm>

namespace gpupm {

namespace {

struct CoreShutdownJudge {
  const CoreShutdownAnalysis& a;
  const ClaimBook& book;
  std::vector<Claim> claims;

  double limit(const char* id, const char* name) const { return book.limit(id, name); }
  void judged(const char* id, std::string measured, bool ok, std::string note_if_fail) {
    claims.push_back(book.judged(id, std::move(measured), ok, std::move(note_if_fail)));
  }
  void compute_kernels();
  void convergence();
  void cache_thrash();
  void energy_savings();
  void leakage_linearity();
  void against_dvfs();
  void invocations();
};

void CoreShutdownJudge::compute_kernels() {
  if (!a.compute_detail.empty())
    judged("C1", a.compute_detail, a.compute_untouched, "a compute kernel was searched or changed");
  else
    claims.push_back(book.not_judged("C1", "no compute application in this run"));
}

// A claim with nothing to judge still gets its row (n/a and why), so a summary always lists every claim.
void CoreShutdownJudge::convergence() {
  if (!a.knee_n) {
    claims.push_back(book.not_judged("C2", "no launch completed an SM-count search in this run"));
    return;
  }
  judged("C2",
         std::to_string(a.knee_ok) + "/" + std::to_string(a.knee_n) + " within 3 SMs of the static knee, " +
             std::to_string(a.steps_bad) + " searches > 5 steps: " + a.knee_detail,
         a.knee_ok == a.knee_n && a.steps_bad == 0, "see core_shutdown_launches[].knee_sms");
}

void CoreShutdownJudge::cache_thrash() {
  if (!a.thrash_n) {
    claims.push_back(na_claim("C3", "cache-thrash kernels gain", "+12%", "no cache-thrash application in this run"));
    return;
  }
  const std::vector<double>& peaks = a.thrash_peak_gain;
  double g = geomean(a.thrash_gain), pg = peaks.empty() ? 1.0 : geomean(peaks);
  double pmax = peaks.empty() ? 1.0 : *std::max_element(peaks.begin(), peaks.end());
  judged("C3",
         "core shut-down " + pct(g) + " perf (geomean); static peak vs 32 SMs " + pct(pg) + " avg, " + pct(pmax) +
             " max; L2 hit rate up in " + std::to_string(a.l2_better) + "/" + std::to_string(a.thrash_n),
         g > 1.0 && pg >= limit("C3", "static_peak_gain_min") && a.l2_better == a.thrash_n, "see the SM sweep");
}

void CoreShutdownJudge::energy_savings() {
  if (a.mem_saving_cs.empty()) {
    for (const char* id : {"C4a", "C4b", "C4c"})
      claims.push_back(book.not_judged(id, "no application measured as memory-intensive in this run"));
    return;
  }
  double s = mean(a.mem_saving_cs), so = mean(a.mem_saving_oracle);
  double mx = *std::max_element(a.mem_saving_cs.begin(), a.mem_saving_cs.end());
  double loss = a.nonthrash_loss.empty() ? 1.0 : geomean(a.nonthrash_loss);
  judged("C4a", fixed(s * 100, 1) + "% (max " + fixed(mx * 100, 1) + "%)", s >= limit("C4a", "saving_min"),
         "below 15%");
  judged("C4b",
         "oracle " + fixed(so * 100, 1) + "%, ours " + fixed(s * 100, 1) + "%: gap " + fixed((so - s) * 100, 1) +
             " points",
         so - s <= limit("C4b", "gap_max"), "oracle far ahead");
  judged("C4c", pct(loss) + " (geomean)", loss >= limit("C4c", "speedup_min"), "loses more than 4%");
}

// Least-squares line through the origin and its R^2.
void CoreShutdownJudge::leakage_linearity() {
  const auto& pts = a.leak_vs_gated;
  if (pts.size() < 3) {
    claims.push_back(book.not_judged("C5", "fewer than 3 static SM-sweep runs in this run"));
    return;
  }
  double sxy = 0, sxx = 0, syy = 0, my = 0;
  for (auto& [x, y] : pts) sxy += x * y, sxx += x * x, my += y;
  my /= double(pts.size());
  double k = sxx > 0 ? sxy / sxx : 0, ss_res = 0;
  for (auto& [x, y] : pts) ss_res += (y - k * x) * (y - k * x), syy += (y - my) * (y - my);
  double r2 = syy > 0 ? 1 - ss_res / syy : 1;
  judged("C5",
         "static SM sweep: SM leakage power saving = " + fixed(k, 3) + " x gated fraction, R^2 " + fixed(r2, 4) +
             " over " + std::to_string(pts.size()) + " runs",
         r2 >= limit("C5", "r2_min") && k >= limit("C5", "slope_min") && k <= limit("C5", "slope_max"), "not linear");
}

void CoreShutdownJudge::against_dvfs() {
  if (a.mem_saving_dvfs.empty()) {
    claims.push_back(book.not_judged("C6", "no memory-intensive application ran under core DVFS in this run"));
    return;
  }
  double s = mean(a.mem_saving_cs), d = mean(a.mem_saving_dvfs);
  double gc = a.n_cache ? a.gap_cache / a.n_cache : 0, go = a.n_other ? a.gap_other / a.n_other : 0;
  judged("C6",
         fixed(s * 100, 1) + "% vs " + fixed(d * 100, 1) + "%; gap " + fixed(gc * 100, 1) + " points on cache-thrash, " +
             fixed(go * 100, 1) + " on the others",
         s > d && (a.n_cache == 0 || gc > go), "DVFS ahead or gap not largest on cache kernels");
}

void CoreShutdownJudge::invocations() {
  if (a.phase_detail.empty() && a.stable_detail.empty()) {
    claims.push_back(book.not_judged("C7", "no launch settled on an SM count in this run"));
    return;
  }
  if (a.phase_detail.empty()) {
    claims.push_back(book.not_judged("C7", "no phase-changing kernel in this run; the others: " + a.stable_detail));
    return;
  }
  judged("C7", "phase: " + a.phase_detail + "; others: " + a.stable_detail, a.phase_varies && a.stable_ok,
         "see launches");
}

}  // namespace

std::vector<Claim> judge_core_shutdown_claims(const CoreShutdownAnalysis& a) {
  CoreShutdownJudge j{a, a.config.claims, {}};
  j.compute_kernels();
  j.convergence();
  j.cache_thrash();
  j.energy_savings();
  j.leakage_linearity();
  j.against_dvfs();
  j.invocations();
  return j.claims;
}

}  // namespace gpupm
