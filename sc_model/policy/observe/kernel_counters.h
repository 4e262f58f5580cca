// The observation block shared by the SM-count / V/F controllers (core
// shut-down, core DVFS; later Harmonia and SM allocation): the hardware
// counters of the core shut-down paper (specs/core_shutdown_harmonia_sm_allocation.md
// P1.1) and what they give over a window.
//   per SM       executed instructions, SM cycles (IPC), CTAs completed and
//                resident-CTA cycles (average CTA time, Little's law)
//   per channel  DRAM transactions and memory cycles (MBU); the memory system
//                exposes them summed over its channels, which is all MBU needs
//                (MBU = sum_ch busy_ch / (channels x cycles))
// A snapshot is taken at the start of a window; stats() over a set of SMs is
// the difference to "now". Windows that end after a number of completed CTAs
// (the paper's CTA-based sampling) are CtaWindow.
#pragma once

#include "policy/policy.h"

#include <cstdint>
#include <vector>

namespace gpupm {

struct CounterSnapshot {
  double time_s = 0;
  uint64_t sm_cycle = 0, mem_cycle = 0;
  std::vector<uint64_t> insts, ctas_completed, resident_cta_cycles;  // per SM
  uint64_t dram_bus_busy = 0;      // data-bus cycles, summed over channels
  uint64_t dram_transactions = 0;  // 128 B bursts (reads + writes)
  uint64_t l2_hits = 0, l2_misses = 0;
};

struct WindowStats {
  double seconds = 0;
  uint64_t sm_cycles = 0, mem_cycles = 0;
  uint64_t insts = 0;            // over the SMs of the set
  uint64_t ctas_completed = 0;   // over the SMs of the set
  double ipc = 0;                // insts / SM cycles: the set's instructions per SM-domain cycle
  double ips = 0;                // insts / second (comparable across SM clocks)
  double mbu = 0;                // DRAM data-bus utilisation, 0..1
  double avg_cta_cycles = 0;     // resident CTA-cycles / CTAs completed (0: none completed)
  double l2_hit_rate = 0;
  std::vector<double> sm_ipc;    // per SM of the whole GPU (0 outside the set)
};

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
