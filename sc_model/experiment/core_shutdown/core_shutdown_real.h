// The core shut-down experiment on real programs (configs/experiments/core_shutdown_real.json):
// each program's class measured from its runs by the paper's rules, never assigned.
#pragma once

#include "gpupm/experiment/core_shutdown/core_shutdown.h"

namespace gpupm {

// The real suite's config with every program's class and memory_intensive
// measured, and what was measured (summary.json's "programs"):
// - per kernel of at least kernel_share_min of its program's baseline time, its
//   baseline MBU (its launches as one interval); memory-intensive when MBU >
//   mbu_min (docs/papers.md#core-shutdown-mechanism). A program is MEM when all
//   its counted kernels are, MEM-COMP when some are, COMP otherwise.
// - K-CACHE-thrash (docs/papers.md#core-shutdown-classes): a memory program whose
//   fastest static SM count (the oracle-sm sweep) beats all SMs by
//   thrash_gain_min with a higher L2 hit rate.
// - K-PHASE: a kernel whose launches' static knees (the smallest SM count within
//   alpha of that launch's best) span at least phase_knee_span SMs, over its
//   launches long enough for the policy to sample phase_min_windows windows in
//   them (a launch shorter than the policy's sampling cannot be acted on, so
//   its knee marks no phase: sort steps of a few microseconds did).
struct MeasuredClasses {
  CoreShutdownConfig config;
  Json programs = Json::object();
};
MeasuredClasses measure_core_shutdown_classes(const CoreShutdownConfig& c, const RunReports& reports);

}  // namespace gpupm
