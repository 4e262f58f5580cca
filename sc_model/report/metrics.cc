#include "gpupm/report/metrics.h"

#include "gpupm/report/report_keys.h"
#include <nlohmann/json.hpp>

namespace gpupm {

namespace {
double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }
}  // namespace

nlohmann::json interval_metrics(const Snapshot& a, const Snapshot& b, const MetricContext& ctx) {
  using nlohmann::json;
  const double t = b.time_s - a.time_s;
  const SmCounters& s1 = b.sm;
  const SmCounters& s0 = a.sm;
  const uint64_t sm_cycles = b.sm_cycles - a.sm_cycles;
  const uint64_t insts = s1.insts - s0.insts;
  const Energy e = b.energy - a.energy;
  const double samples = double(s1.samples - s0.samples);
  json residency = json::object();
  for (size_t d = 0; d < kDomains; ++d) {
    json levels = json::object();
    const auto& lv = ctx.dvfs->domain[d].levels;
    for (size_t i = 0; i < lv.size(); ++i) {
      double r0 = i < a.residency[d].size() ? a.residency[d][i] : 0.0;
      levels[lv[i].name] = ratio(b.residency[d][i] - r0, t);
    }
    residency[domain_name(Domain(d))] = levels;
  }
  const MemActivity& m1 = b.mem;
  const MemActivity& m0 = a.mem;
  double l1_hits = double(s1.lsu.l1_hits - s0.lsu.l1_hits);
  double l1_misses = double(s1.lsu.l1_misses - s0.lsu.l1_misses);
  double l2_hits = double(m1.l2_hits - m0.l2_hits);
  double l2_misses = double(m1.l2_misses - m0.l2_misses);
  double dram_bytes = double((m1.dram_reads - m0.dram_reads) + (m1.dram_writes - m0.dram_writes)) * ctx.line_bytes;
  double mem_cycles = double(b.mem_cycles - a.mem_cycles);
  json energy = e.to_json();
  namespace key = report_key;
  return {
      {key::kSimTime, t},
      {key::kCycles, {{"sm", sm_cycles}, {"mem", b.mem_cycles - a.mem_cycles}}},
      {key::kInstructions, insts},
      {key::kIpc, ratio(double(insts), double(sm_cycles))},
      {key::kEnergy, energy},
      {key::kAveragePower, ratio(e.total(), t)},
      {"edp_js", e.total() * t},
      {"ed2p_js2", e.total() * t * t},
      {key::kVfResidency, residency},
      {"mean_ctas_per_sm",
       ratio(double(s1.resident_cta_cycles - s0.resident_cta_cycles), double(s1.cycles - s0.cycles))},
      {key::kWarpStates,
       {{"samples", s1.samples - s0.samples},
        {"active", ratio(double(s1.sum_active - s0.sum_active), samples)},
        {"waiting", ratio(double(s1.sum_waiting - s0.sum_waiting), samples)},
        {"excess_alu", ratio(double(s1.sum_excess_alu - s0.sum_excess_alu), samples)},
        {"excess_mem", ratio(double(s1.sum_excess_mem - s0.sum_excess_mem), samples)},
        {"issued", ratio(double(s1.sum_issued - s0.sum_issued), samples)},
        {"others", ratio(double(s1.sum_others - s0.sum_others), samples)}}},
      {key::kL1HitRate, ratio(l1_hits, l1_hits + l1_misses)},
      {key::kL2HitRate, ratio(l2_hits, l2_hits + l2_misses)},
      {"lsu_stall_fraction", ratio(double(s1.lsu.stall_cycles - s0.lsu.stall_cycles), double(s1.cycles - s0.cycles))},
      {key::kDramUtilisation, ratio(double(m1.dram_bus_busy - m0.dram_bus_busy), double(ctx.channels) * mem_cycles)},
      {key::kDramBandwidth, ratio(dram_bytes, t) / 1e9},
      {key::kL2ToL1Bandwidth, ratio(double(m1.read_responses - m0.read_responses) * ctx.line_bytes, t) / 1e9},
      {key::kMemComputeRatio,
       ratio(double(s1.mem_insts - s0.mem_insts), double(insts - (s1.mem_insts - s0.mem_insts)))},
      {"dram_row_hit_rate", 1.0 - ratio(double(m1.dram_activates - m0.dram_activates),
                                        double((m1.dram_reads - m0.dram_reads) + (m1.dram_writes - m0.dram_writes)))},
      {"mean_read_latency_ns",
       ratio(double(m1.read_latency_sum_ps - m0.read_latency_sum_ps), double(m1.read_responses - m0.read_responses)) /
           1000.0},
      {"ctas_completed", s1.ctas_completed - s0.ctas_completed},
      {"icache_misses", s1.icache_misses - s0.icache_misses},
  };
}

}  // namespace gpupm
