// The Equalizer experiment on real programs (configs/experiments/equalizer_real.json).
// Each program runs whole under every policy and static CTA count; its kernels
// (the launches of one .entry) that take at least kernel_share_min of its
// baseline time become the kernels the analysis sees, each with a report of its
// own cut out of the program's (its launches added up) and the paper's
// category measured from its counters, never assigned.
#pragma once

#include "gpupm/experiment/equalizer/equalizer.h"

namespace gpupm {

// The paper's classification (Alg. 1, docs/papers.md#equalizer-metrics) of a
// kernel's baseline warp states (per SM, averaged over its run): X_mem > W_cta
// is memory intensive, else X_alu > W_cta compute intensive, else X_mem > 2
// memory (bandwidth saturated), else unsaturated. A memory kernel is cache
// sensitive when a static CTA count below the maximum runs it at least
// cache_gain_min times faster than the baseline (Fig. 1e, 5: cache kernels are
// best below max threads), as the CTA sweep measures.
std::string paper_category(double x_alu, double x_mem, uint32_t w_cta, double cache_gain, double cache_gain_min);

// REPORT's policy trace cut down to the epochs that end inside KERNEL's
// launches, the first epoch of each launch marked kLaunchStart (it holds the
// kernel start's reload of numBlocks, which claim D1 does not count). A
// launch's SM cycles follow the previous launch's with none between them
// (the Equalizer GPU config launches kernels back to back: kernel_launch_ns 0).
inline constexpr char kLaunchStart[] = "launch_start";
Json kernel_trace(const Json& report, const std::string& kernel);

// The analysis' view of a real suite: a kernel per (program, kernel) with its
// measured category, and per run of a program a report per kernel (its launches
// only, the program's config and policy trace), under the kernel's run ids.
struct ProgramKernels {
  EqualizerConfig config;
  RunReports reports;
  // per program, per kernel: time share, warp states, CTA gain, category, whether
  // analysed and under which name (its Table II id, else PROGRAM:KERNEL)
  Json measured = Json::object();
};
ProgramKernels split_program_kernels(const EqualizerConfig& programs, const RunReports& reports);

// The runs planned once the categories are measured: DynCTA and CTA-only
// Equalizer on the programs with a cache-sensitive kernel (or bfs-1, spmv-1: claim D6
// reads their CTA-only runs whatever their category).
std::vector<RunSpec> plan_cache_runs(const EqualizerConfig& programs, const RunReports& reports);

}  // namespace gpupm
