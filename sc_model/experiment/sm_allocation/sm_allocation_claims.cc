// The SM-allocation paper's claims (docs/papers.md#sm-allocation-claims)
// judged on the runs (C1-C5 on the config's gpu, C6 on its pascal_gpu); each claim's text and tolerance come from the
// config.
#include "gpupm/experiment/sm_allocation/sm_allocation_analysis.h"

#include "gpupm/experiment/format_stats.h"

namespace gpupm {

namespace {

int count(const std::map<std::string, int>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

struct SmAllocationJudge {
  const SmAllocationAnalysis& a;
  const ClaimBook& book;
  const int nq;  // queues run
  std::vector<Claim> claims;

  double limit(const char* id, const char* name) const { return book.limit(id, name); }
  void judged(const char* id, std::string measured, bool ok, std::string note_if_fail) {
    claims.push_back(book.judged(id, std::move(measured), ok, std::move(note_if_fail)));
  }
  // COUNT of the queues run against a share of the paper's nine queues.
  bool at_least_of_nine(int n, const char* id, const char* name) const { return n * 9 >= limit(id, name) * nq; }
  void against_even_split();
  void against_other_policies();
  void against_sequential();
  void on_pascal(const SmAllocationAnalysis& pascal);
};

void SmAllocationJudge::against_even_split() {
  const double t_sa = a.avg("sm-allocation", "throughput"), e_sa = a.avg("sm-allocation", "efficiency");
  const double p_sa = a.avg("sm-allocation", "power"), en_sa = a.avg("sm-allocation", "energy");
  const std::vector<double>& ratios = a.throughput_ratios.at("sm-allocation");
  int higher_everywhere = 0;
  for (double r : ratios) higher_everywhere += r > 1.0;
  // Bounded on both sides: the paper's order of magnitude, not a multiple of it.
  judged("C1a", pct(t_sa) + " (mean over " + std::to_string(nq) + " queues; geomean " + pct(geomean(ratios)) + ")",
         t_sa >= limit("C1a", "throughput_min") && t_sa <= limit("C1a", "throughput_max"),
         t_sa < limit("C1a", "throughput_min") ? "below the band: see the per-queue table"
                                               : "above the band: see the per-queue table");
  judged("C1b", pct(e_sa) + " (mean)", e_sa >= limit("C1b", "efficiency_min") && e_sa <= limit("C1b", "efficiency_max"),
         e_sa < limit("C1b", "efficiency_min") ? "below the band" : "above the band");
  judged("C1c", "power " + pct(p_sa) + ", energy " + pct(en_sa), p_sa > 1.0 && en_sa < 1.0,
         "power not higher or energy not lower");
  judged("C1d", std::to_string(higher_everywhere) + "/" + std::to_string(nq) + " queues", higher_everywhere == nq,
         "lower on some queues");
}

void SmAllocationJudge::against_other_policies() {
  const double t_sa = a.avg("sm-allocation", "throughput"), e_sa = a.avg("sm-allocation", "efficiency");
  const double t_smra = a.avg("ilp-smra", "throughput"), e_smra = a.avg("ilp-smra", "efficiency");
  judged("C2",
         pct(t_sa / t_smra) + " throughput, " + pct(e_sa / e_smra) +
             " power efficiency (ratio of the means vs even split)",
         t_sa > t_smra && e_sa > e_smra, "the reactive policy is ahead");
  const double t_ap = a.avg("aging-power", "throughput"), e_ap = a.avg("aging-power", "efficiency");
  judged("C3", pct(t_sa / t_ap) + " throughput, " + pct(e_sa / e_ap) + " power efficiency", t_sa > t_ap && e_sa > e_ap,
         "aging-power is ahead");
  const double t_pa = a.avg("perf-aging", "throughput"), e_pa = a.avg("perf-aging", "efficiency");
  judged("C3b", pct(e_sa / e_pa) + " power efficiency, " + pct(t_sa / t_pa) + " throughput", e_sa > e_pa,
         "perf-aging is ahead on power efficiency");
  const int best_throughput = count(a.best_throughput, "sm-allocation");
  const int best_efficiency = count(a.best_efficiency, "sm-allocation");
  judged("C3c",
         std::to_string(best_throughput) + "/" + std::to_string(nq) + " and " + std::to_string(best_efficiency) + "/" +
             std::to_string(nq),
         at_least_of_nine(best_throughput, "C3c", "of_nine_min") &&
             at_least_of_nine(best_efficiency, "C3c", "of_nine_min"),
         "best on fewer queues");
}

void SmAllocationJudge::against_sequential() {
  const std::string of_nq = "/" + std::to_string(nq) + " queues";
  judged("C4a", std::to_string(a.seq_below_sa_t) + of_nq, a.seq_below_sa_t == nq, "sequential is faster on some queue");
  judged("C4b",
         std::to_string(a.seq_lowest_p) + of_nq + " (mean power vs even split: sequential " +
             pct(a.avg(kSequential, "power")) + ", sm-allocation " + pct(a.avg("sm-allocation", "power")) +
             ", aging-power " + pct(a.avg("aging-power", "power")) + ")",
         a.seq_lowest_p == nq, "policies that gate SMs draw less than one application alone on all SMs");
  judged("C4c", std::to_string(a.seq_best_pe) + of_nq,
         at_least_of_nine(a.seq_best_pe, "C4c", "of_nine_min") && a.seq_best_pe * 9 <= limit("C4c", "of_nine_max") * nq,
         "outside 4-7 of 9");
  judged("C4d", std::to_string(a.seq_below_sa_e) + of_nq, at_least_of_nine(a.seq_below_sa_e, "C4d", "of_nine_min"),
         "sm-allocation lower on most queues");
}

// C6 on the Pascal column: power efficiency over the even split within the band, lower
// energy, best throughput on most queues.
void SmAllocationJudge::on_pascal(const SmAllocationAnalysis& pascal) {
  const double e = pascal.avg("sm-allocation", "efficiency"), en = pascal.avg("sm-allocation", "energy");
  const double t = pascal.avg("sm-allocation", "throughput");
  const int best = count(pascal.best_throughput, "sm-allocation");
  const bool in_band = e >= limit("C6", "efficiency_min") && e <= limit("C6", "efficiency_max");
  const bool most = at_least_of_nine(best, "C6", "of_nine_min");
  std::string why;
  if (!in_band)
    why +=
        e < limit("C6", "efficiency_min") ? "power efficiency below the band; " : "power efficiency above the band; ";
  if (en >= 1.0) why += "energy not lower; ";
  if (!most) why += "best throughput on fewer queues; ";
  judged("C6",
         "on " + pascal.config.gpu_name + ": power efficiency " + pct(e) + ", energy " + pct(en) + ", throughput " +
             pct(t) + " (means); best throughput on " + std::to_string(best) + "/" + std::to_string(nq) + " queues",
         in_band && en < 1.0 && most, why.empty() ? why : why.substr(0, why.size() - 2));
}

}  // namespace

std::vector<Claim> judge_sm_allocation_claims(const SmAllocationAnalysis& a, const SmAllocationAnalysis* pascal) {
  SmAllocationJudge j{a, a.config.claims, int(a.queues_run().size()), {}};
  j.against_even_split();
  j.against_other_policies();
  j.against_sequential();
  j.judged("C5", std::to_string(a.gating_ok) + "/" + std::to_string(a.gating_n) + " sm-allocation pairs",
           a.gating_ok == a.gating_n, a.gating_detail);
  if (pascal) j.on_pascal(*pascal);
  else j.claims.push_back(a.config.claims.not_judged("C6", "no pascal_gpu in the experiment config: one GPU ran"));
  return j.claims;
}

}  // namespace gpupm
