#include "policy/observe/kernel_counters.h"

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
  uint32_t n = ctx.sm_count();
  s.insts.resize(n);
  s.ctas_completed.resize(n);
  s.resident_cta_cycles.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    SmCounters c = ctx.sm(i).counters();
    s.insts[i] = c.insts;
    s.ctas_completed[i] = c.ctas_completed;
    s.resident_cta_cycles[i] = c.resident_cta_cycles;
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
  w.ipc = ratio(double(w.insts), double(w.sm_cycles));
  w.ips = ratio(double(w.insts), w.seconds);
  w.mbu = ratio(double(b.dram_bus_busy - a.dram_bus_busy), double(channels) * double(w.mem_cycles));
  w.avg_cta_cycles = ratio(double(cta_cycles), double(w.ctas_completed));
  double h = double(b.l2_hits - a.l2_hits), m = double(b.l2_misses - a.l2_misses);
  w.l2_hit_rate = ratio(h, h + m);
  return w;
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
