#include "gpupm/policy/shared/observe/kernel_counters.h"

#include <algorithm>
#include <systemc>

namespace gpupm {

namespace {
double ratio(double n, double d) { return d > 0 ? n / d : 0.0; }
bool in(const std::vector<bool>& set, size_t i) { return set.empty() || (i < set.size() && set[i]); }
}  // namespace

CounterSnapshot KernelCounters::take(const PolicyContext& ctx) {
  CounterSnapshot s;
  s.time_s = sc_core::sc_time_stamp().to_seconds();
  s.sm_cycle = ctx.sm_cycle();
  s.mem_cycle = ctx.mem_cycle();
  s.schedulers = ctx.schedulers();
  uint32_t n = ctx.sm_count();
  s.insts.resize(n);
  s.ctas_completed.resize(n);
  s.resident_cta_cycles.resize(n);
  s.activity.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    SmCounters c = ctx.sm(i).counters();
    s.insts[i] = c.insts;
    s.ctas_completed[i] = c.ctas_completed;
    s.resident_cta_cycles[i] = c.resident_cta_cycles;
    SmActivity& a = s.activity[i];
    a.powered_cycles = c.cycles - c.gated_cycles;
    a.valu_busy_cycles = c.valu_busy_cycles;
    a.valu_insts = c.alu_insts + c.sfu_insts;
    a.divergent_insts = c.divergent_insts;
    a.lsu_busy_cycles = c.lsu.busy_cycles;
    a.load_stall_cycles = c.lsu.stall_cycles - c.lsu.store_stall_cycles;
    a.store_stall_cycles = c.lsu.store_stall_cycles;
  }
  const MemActivity& m = ctx.memory();
  s.dram_bus_busy = m.dram_bus_busy;
  s.dram_transactions = m.dram_reads + m.dram_writes;
  s.l2_hits = m.l2_hits;
  s.l2_misses = m.l2_misses;
  return s;
}

WindowStats KernelCounters::between(const CounterSnapshot& a, const CounterSnapshot& b, uint32_t channels,
                                    const std::vector<bool>& set) {
  WindowStats w;
  w.seconds = b.time_s - a.time_s;
  w.sm_cycles = b.sm_cycle - a.sm_cycle;
  w.mem_cycles = b.mem_cycle - a.mem_cycle;
  uint64_t cta_cycles = 0;
  w.sm_ipc.assign(b.insts.size(), 0.0);
  for (size_t i = 0; i < b.insts.size() && i < a.insts.size(); ++i) {
    if (!in(set, i)) continue;
    uint64_t d = b.insts[i] - a.insts[i];
    w.insts += d;
    w.sm_ipc[i] = ratio(double(d), double(w.sm_cycles));
    w.ctas_completed += b.ctas_completed[i] - a.ctas_completed[i];
    cta_cycles += b.resident_cta_cycles[i] - a.resident_cta_cycles[i];
  }
  SmActivity d;  // summed over the set
  for (size_t i = 0; i < b.activity.size() && i < a.activity.size(); ++i) {
    if (!in(set, i)) continue;
    const SmActivity &x = a.activity[i], &y = b.activity[i];
    d.powered_cycles += y.powered_cycles - x.powered_cycles;
    d.valu_busy_cycles += y.valu_busy_cycles - x.valu_busy_cycles;
    d.valu_insts += y.valu_insts - x.valu_insts;
    d.divergent_insts += y.divergent_insts - x.divergent_insts;
    d.lsu_busy_cycles += y.lsu_busy_cycles - x.lsu_busy_cycles;
    d.load_stall_cycles += y.load_stall_cycles - x.load_stall_cycles;
    d.store_stall_cycles += y.store_stall_cycles - x.store_stall_cycles;
  }
  w.schedulers = b.schedulers;
  w.valu_busy_cycles = d.valu_busy_cycles;
  const double powered = double(d.powered_cycles);
  w.valu_busy = std::min(100.0, 100.0 * ratio(double(d.valu_busy_cycles), powered * b.schedulers));
  w.valu_utilization = d.valu_insts ? 100.0 * double(d.valu_insts) / double(d.valu_insts + d.divergent_insts) : 100.0;
  w.mem_unit_busy = 100.0 * ratio(double(d.lsu_busy_cycles), powered);
  w.mem_unit_stalled = 100.0 * ratio(double(d.load_stall_cycles), powered);
  w.write_unit_stalled = 100.0 * ratio(double(d.store_stall_cycles), powered);
  w.ipc = ratio(double(w.insts), double(w.sm_cycles));
  w.ips = ratio(double(w.insts), w.seconds);
  w.mbu = ratio(double(b.dram_bus_busy - a.dram_bus_busy), double(channels) * double(w.mem_cycles));
  w.avg_cta_cycles = ratio(double(cta_cycles), double(w.ctas_completed));
  double h = double(b.l2_hits - a.l2_hits), m = double(b.l2_misses - a.l2_misses);
  w.l2_hit_rate = ratio(h, h + m);
  return w;
}

Table2Counters table2_counters(const WindowStats& w, const KernelLaunch& k) {
  Table2Counters t;
  t.valu_busy = w.valu_busy;
  t.valu_utilization = w.valu_utilization;
  t.mem_unit_busy = w.mem_unit_busy;
  t.mem_unit_stalled = w.mem_unit_stalled;
  t.write_unit_stalled = w.write_unit_stalled;
  t.ic_activity = w.mbu;
  t.norm_vgpr = k.vgprs / 256.0;
  t.norm_sgpr = k.sgprs / 102.0;
  double alu = w.valu_busy * w.valu_utilization / 100.0;
  t.c_to_m = w.mem_unit_busy > 0 ? std::min(100.0, 100.0 * alu / w.mem_unit_busy) : (alu > 0 ? 100.0 : 0.0);
  return t;
}

double device_valu_busy(const WindowStats& w, uint32_t sm_total, double top_mhz) {
  return 100.0 * ratio(double(w.valu_busy_cycles), double(sm_total) * w.schedulers * w.seconds * top_mhz * 1e6);
}

uint64_t KernelCounters::ctas_since(const CounterSnapshot& a, const PolicyContext& ctx, const std::vector<bool>& set) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < ctx.sm_count() && i < a.ctas_completed.size(); ++i)
    if (in(set, i)) n += ctx.sm(i).counters().ctas_completed - a.ctas_completed[i];
  return n;
}

void CtaWindow::open(const PolicyContext& ctx, uint64_t target, std::vector<bool> in_set) {
  open_ = true;
  target_ = target;
  set_ = std::move(in_set);
  start_ = KernelCounters::take(ctx);
}

uint64_t CtaWindow::completed(const PolicyContext& ctx) const {
  return open_ ? KernelCounters::ctas_since(start_, ctx, set_) : 0;
}

WindowStats CtaWindow::finish(const PolicyContext& ctx) {
  open_ = false;
  return KernelCounters::between(start_, KernelCounters::take(ctx), ctx.mem_channels(), set_);
}

}  // namespace gpupm
