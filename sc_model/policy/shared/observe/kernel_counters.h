// The observation block shared by the SM-count / V/F controllers (core
// shut-down, core DVFS; later Harmonia and SM allocation): the hardware
// counters of the core shut-down paper (docs/papers.md#core-shutdown-counters)
// and what they give over a window.
//   per SM       executed instructions, SM cycles (IPC), CTAs completed and
//                resident-CTA cycles (average CTA time, Little's law)
//   per channel  DRAM transactions and memory cycles (MBU); the memory system
//                exposes them summed over its channels, which is all MBU needs
//                (MBU = sum_ch busy_ch / (channels x cycles))
// and Harmonia's Table 2 counters (docs/papers.md#harmonia-counters), from each SM's VALU pipe and LSU:
//   VALUBusy          VALU (ALU + SFU) pipe-busy cycles / (issue slots x powered cycles)
//   VALUUtilization   active lanes per VALU pass (a divergent instruction runs two
//                     passes with half the lanes each)
//   MemUnitBusy       cycles the LSU holds an instruction, advancing or stalled
//   MemUnitStalled    cycles the LSU is stalled on a load; WriteUnitStalled: on a store
//   icActivity        DRAM bus utilisation at the current memory clock (= MBU, Eq. 1-2)
//   NormVGPR/SGPR     the kernel's registers / 256, / 102 (the launch's profile)
//   C-to-M            (VALUBusy x VALUUtilization / 100) / MemUnitBusy (Eq. 3), x 100, capped at 100
// The % counters are over the powered time of the set's CUs at their own clock,
// so a power-gated CU or a lower clock does not by itself move them.
// A snapshot is taken at the start of a window; stats() over a set of SMs is
// the difference to "now". Windows that end after a number of completed CTAs
// (the paper's CTA-based sampling) are CtaWindow.
#pragma once

#include "gpupm/policy/policy.h"

#include <cstdint>
#include <vector>

namespace gpupm {

// One SM's VALU and LSU activity (the Table 2 counters' sources).
struct SmActivity {
  uint64_t powered_cycles = 0;  // not power-gated
  uint64_t valu_busy_cycles = 0, valu_insts = 0, divergent_insts = 0;
  uint64_t lsu_busy_cycles = 0, load_stall_cycles = 0, store_stall_cycles = 0;
};

struct CounterSnapshot {
  double time_s = 0;
  uint64_t sm_cycle = 0, mem_cycle = 0;
  uint32_t schedulers = 1;                                           // issue slots per SM
  std::vector<uint64_t> insts, ctas_completed, resident_cta_cycles;  // per SM
  std::vector<SmActivity> activity;                                  // per SM
  uint64_t dram_bus_busy = 0;                                        // data-bus cycles, summed over channels
  uint64_t dram_transactions = 0;                                    // 128 B bursts (reads + writes)
  uint64_t l2_hits = 0, l2_misses = 0;
};

struct WindowStats {
  double seconds = 0;
  uint64_t sm_cycles = 0, mem_cycles = 0;
  uint64_t insts = 0;           // over the SMs of the set
  uint64_t ctas_completed = 0;  // over the SMs of the set
  double ipc = 0;               // insts / SM cycles: the set's instructions per SM-domain cycle
  double ips = 0;               // insts / second (comparable across SM clocks)
  double mbu = 0;               // DRAM data-bus utilisation, 0..1
  double avg_cta_cycles = 0;    // resident CTA-cycles / CTAs completed (0: none completed)
  double l2_hit_rate = 0;
  std::vector<double> sm_ipc;  // per SM of the whole GPU (0 outside the set)
  // Table 2 (docs/papers.md#harmonia-counters), in % over the set's powered CU time; icActivity is mbu.
  double valu_busy = 0, valu_utilization = 100, mem_unit_busy = 0, mem_unit_stalled = 0, write_unit_stalled = 0;
  uint64_t valu_busy_cycles = 0;  // over the set
  uint32_t schedulers = 1;
};

// The inputs of Harmonia's sensitivity models (Table 3), in the units the
// model reads from the coefficients (docs/papers.md#harmonia-predictors): % counters 0..100, icActivity and
// the register fractions 0..1.
struct Table2Counters {
  double valu_busy = 0, valu_utilization = 0, mem_unit_busy = 0, mem_unit_stalled = 0, write_unit_stalled = 0;
  double ic_activity = 0, norm_vgpr = 0, norm_sgpr = 0, c_to_m = 0;
};
Table2Counters table2_counters(const WindowStats& w, const KernelLaunch& k);

// VALU busy of the whole device at its top clock, in %: the set's VALU busy
// cycles / (sm_total x issue slots x window seconds x top_mhz). Unlike
// valu_busy it falls when CUs are gated or the clock is lowered without the
// work going faster: a throughput measure for the same kernel (Harmonia's FG
// feedback, "a good proxy for overall performance").
double device_valu_busy(const WindowStats& w, uint32_t sm_total, double top_mhz);

class KernelCounters {
 public:
  // Reads every counter now.
  static CounterSnapshot take(const PolicyContext& ctx);
  // From `a` to `b`, over the SMs with in_set[i] (empty: all).
  static WindowStats between(const CounterSnapshot& a, const CounterSnapshot& b, uint32_t channels,
                             const std::vector<bool>& in_set = {});
  // CTAs completed since `a` on the set.
  static uint64_t ctas_since(const CounterSnapshot& a, const PolicyContext& ctx, const std::vector<bool>& in_set = {});
};

// A CTA-based sampling window: it closes when `target` CTAs have completed on
// its set of SMs since it opened.
class CtaWindow {
 public:
  void open(const PolicyContext& ctx, uint64_t target, std::vector<bool> in_set = {});
  bool is_open() const { return open_; }
  void close() { open_ = false; }
  uint64_t target() const { return target_; }
  uint64_t completed(const PolicyContext& ctx) const;
  bool full(const PolicyContext& ctx) const { return open_ && completed(ctx) >= target_; }
  // The window's statistics up to now (closes it).
  WindowStats finish(const PolicyContext& ctx);
  const CounterSnapshot& start() const { return start_; }

 private:
  bool open_ = false;
  uint64_t target_ = 0;
  std::vector<bool> set_;
  CounterSnapshot start_;
};

}  // namespace gpupm
