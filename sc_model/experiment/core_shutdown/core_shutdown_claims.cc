// The core shut-down paper's claims (docs/papers.md#core-shutdown-claims)
// judged on the runs; each claim's text and tolerance come from the config.
#include "gpupm/experiment/core_shutdown/core_shutdown_analysis.h"

#include "gpupm/experiment/format_stats.h"

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
  void search_runs();
};

void CoreShutdownJudge::compute_kernels() {
  if (!a.compute_detail.empty())
    judged("C1", a.compute_detail, a.compute_untouched, "a compute kernel was searched or changed");
  else claims.push_back(book.not_judged("C1", "no compute application in this run"));
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
  double gain = geomean(a.thrash_gain), peak_gain = peaks.empty() ? 1.0 : geomean(peaks);
  double peak_max = peaks.empty() ? 1.0 : *std::max_element(peaks.begin(), peaks.end());
  judged(
      "C3",
      "core shut-down " + pct(gain) + " perf (geomean); static peak vs 32 SMs " + pct(peak_gain) + " avg, " +
          pct(peak_max) + " max; L2 hit rate up in " + std::to_string(a.l2_better) + "/" + std::to_string(a.thrash_n),
      gain > 1.0 && peak_gain >= limit("C3", "static_peak_gain_min") && a.l2_better == a.thrash_n, "see the SM sweep");
}

void CoreShutdownJudge::energy_savings() {
  if (a.mem_saving_shutdown.empty()) {
    for (const char* id : {"C4a", "C4b", "C4c"})
      claims.push_back(book.not_judged(id, "no application measured as memory-intensive in this run"));
    return;
  }
  double saving = mean(a.mem_saving_shutdown), oracle = mean(a.mem_saving_oracle);
  double best = *std::max_element(a.mem_saving_shutdown.begin(), a.mem_saving_shutdown.end());
  double loss = a.nonthrash_loss.empty() ? 1.0 : geomean(a.nonthrash_loss);
  judged("C4a", fixed(saving * 100, 1) + "% (max " + fixed(best * 100, 1) + "%)", saving >= limit("C4a", "saving_min"),
         "below 15%");
  judged("C4b",
         "oracle " + fixed(oracle * 100, 1) + "%, ours " + fixed(saving * 100, 1) + "%: gap " +
             fixed((oracle - saving) * 100, 1) + " points",
         oracle - saving <= limit("C4b", "gap_max"), "oracle far ahead");
  judged("C4c", pct(loss) + " (geomean)", loss >= limit("C4c", "speedup_min"), "loses more than 4%");
}

// Least-squares line through the origin and its R^2.
void CoreShutdownJudge::leakage_linearity() {
  const auto& pts = a.leak_vs_gated;
  if (pts.size() < 3) {
    claims.push_back(book.not_judged("C5", "fewer than 3 static SM-sweep runs in this run"));
    return;
  }
  double sum_xy = 0, sum_xx = 0, y_mean = 0;
  for (auto& [x, y] : pts) sum_xy += x * y, sum_xx += x * x, y_mean += y;
  y_mean /= double(pts.size());
  double slope = sum_xx > 0 ? sum_xy / sum_xx : 0, ss_res = 0, ss_tot = 0;
  for (auto& [x, y] : pts) ss_res += (y - slope * x) * (y - slope * x), ss_tot += (y - y_mean) * (y - y_mean);
  double r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
  judged("C5",
         "static SM sweep: SM leakage power saving = " + fixed(slope, 3) + " x gated fraction, R^2 " + fixed(r2, 4) +
             " over " + std::to_string(pts.size()) + " runs",
         r2 >= limit("C5", "r2_min") && slope >= limit("C5", "slope_min") && slope <= limit("C5", "slope_max"),
         "not linear");
}

void CoreShutdownJudge::against_dvfs() {
  if (a.mem_saving_dvfs.empty()) {
    claims.push_back(book.not_judged("C6", "no memory-intensive application ran under core DVFS in this run"));
    return;
  }
  double shutdown = mean(a.mem_saving_shutdown), dvfs = mean(a.mem_saving_dvfs);
  // Mean DVFS-minus-shut-down energy gap, cache-thrash applications and the others.
  double gap_thrash = a.n_cache ? a.gap_cache / a.n_cache : 0, gap_rest = a.n_other ? a.gap_other / a.n_other : 0;
  judged("C6",
         fixed(shutdown * 100, 1) + "% vs " + fixed(dvfs * 100, 1) + "%; gap " + fixed(gap_thrash * 100, 1) +
             " points on cache-thrash, " + fixed(gap_rest * 100, 1) + " on the others",
         shutdown > dvfs && (a.n_cache == 0 || gap_thrash > gap_rest),
         "DVFS ahead or gap not largest on cache kernels");
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

// C8: every memory-bound launch of every memory-intensive program ends below all SMs (a search that
// never gates, or never starts because its launches are shorter than the sampling windows, leaves all on).
void CoreShutdownJudge::search_runs() {
  if (!a.mem_programs) {
    claims.push_back(book.not_judged("C8", "no application measured as memory-intensive in this run"));
    return;
  }
  std::string detail = a.gated_detail;
  detail.resize(detail.size() - 2);  // the last "; "
  judged("C8",
         std::to_string(a.mem_programs_gated) + " of " + std::to_string(a.mem_programs) +
             " programs; memory-bound launches ending below " + std::to_string(a.n_sms) + " SMs: " + detail,
         a.mem_programs_gated == a.mem_programs, "a memory-bound launch ends on all SMs");
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
  j.search_runs();
  return j.claims;
}

}  // namespace gpupm
