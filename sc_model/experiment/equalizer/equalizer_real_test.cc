// The Equalizer real suite on hand-made program reports: the paper's rule gives
// each kernel its category from the counters, a program's runs are cut into
// per-kernel reports, and the CTA-control runs go to programs with a cache kernel.
#include "gpupm/experiment/equalizer/equalizer_real.h"
#include "gpupm/experiment/kernel_interval.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

TEST(EqualizerRealCategory, PaperRuleOnWarpStates) {
  // W_cta 4: X_mem > W_cta is memory first, even with X_alu > W_cta too (Alg. 1 line 7).
  EXPECT_EQ(paper_category(9.0, 5.0, 4, 1.0, 1.02), "memory");
  EXPECT_EQ(paper_category(9.0, 3.0, 4, 1.0, 1.02), "compute");
  EXPECT_EQ(paper_category(1.0, 3.0, 4, 1.0, 1.02), "memory");  // 2 < X_mem <= W_cta: bandwidth saturated
  EXPECT_EQ(paper_category(4.0, 2.0, 4, 1.5, 1.02), "unsaturated");
  // A memory kernel whose best CTA count beats the maximum by cache_gain_min is cache-sensitive.
  EXPECT_EQ(paper_category(1.0, 6.0, 4, 1.02, 1.02), "cache");
  EXPECT_EQ(paper_category(1.0, 6.0, 4, 1.01, 1.02), "memory");
  // The gain does not make a compute kernel cache-sensitive.
  EXPECT_EQ(paper_category(9.0, 1.0, 4, 2.0, 1.02), "compute");
}

// A launch of KERNEL (warps per CTA from its block) with its time, energy and warp states.
Json launch(const std::string& kernel, double time_s, double energy_j, double x_alu, double x_mem) {
  return {{"kernel", kernel},
          {"block", {128, 1, 1}},
          {"sim_time_s", time_s},
          {"energy_j", {{"total", energy_j}, {"by_domain", {{"sm", energy_j / 2}}}}},
          {"warp_states", {{"excess_alu", x_alu}, {"excess_mem", x_mem}}},
          {"vf_residency", {{"sm", {{"high", 0.0}}}, {"mem", {{"high", 0.0}}}}},
          {"l1_hit_rate", 0.5}};
}

// A program run: launches of "gather" (memory-like: X_mem 6 > W_cta 4) and "fma" (X_alu 9), the
// gather's time scaled by GATHER_SCALE (the CTA sweep makes it faster at fewer CTAs).
Json program_report(const std::string& policy, double gather_scale) {
  Json launches = Json::array({launch("gather", 1.0 * gather_scale, 2.0, 1.0, 6.0), launch("fma", 3.0, 3.0, 9.0, 1.0),
                               launch("gather", 3.0 * gather_scale, 2.0, 1.0, 6.0), launch("tiny", 0.1, 0.1, 0, 0)});
  return {{"config", {{"policy", {{"name", policy}}}, {"gpu", {{"controller_impl", "cpp"}}}}},
          {"kernels", launches},
          {"total", {{"sim_time_s", 7.1}, {"energy_j", {{"total", 7.1}}}}}};
}

EqualizerConfig program_config() {
  EqualizerConfig c;
  c.real = true;
  c.classification = {0.05, 1.02};
  EqualizerKernel p;
  p.name = "prog";
  p.file = "prog.json";
  p.max_ctas = 3;
  p.program_kernels = {{"gather", 4, 3, ""}, {"fma", 4, 2, "cutcp-1"}, {"tiny", 4, 3, ""}};
  c.kernels = {p};
  return c;
}

RunReports program_runs(double gather_gain_at_two) {
  RunReports r;
  r.add("prog__baseline", program_report("baseline", 1.0));
  r.add("prog__ctas1", program_report("static", 1.5));
  r.add("prog__ctas2", program_report("static", 1.0 / gather_gain_at_two));
  r.add("prog__ctas3", program_report("static", 1.0));
  return r;
}

TEST(EqualizerRealSplit, KernelIntervalAddsTimesAndWeighsStates) {
  const Json report = program_report("baseline", 1.0);
  const Json gather = kernel_interval(report, "gather");
  EXPECT_DOUBLE_EQ(gather["sim_time_s"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(gather["energy_j"]["total"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(gather["energy_j"]["by_domain"]["sm"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(gather["warp_states"]["excess_mem"].get<double>(), 6.0);
  Json uneven = report;
  uneven["kernels"][2]["warp_states"]["excess_mem"] = 2.0;  // the 3 s launch: (1 x 6 + 3 x 2) / 4
  EXPECT_DOUBLE_EQ(kernel_interval(uneven, "gather")["warp_states"]["excess_mem"].get<double>(), 3.0);
  EXPECT_TRUE(kernel_interval(report, "absent").is_null());
}

TEST(EqualizerRealSplit, MeasuresEachKernelsCategoryAndLeavesOutSmallOnes) {
  const ProgramKernels cache = split_program_kernels(program_config(), program_runs(1.25));
  ASSERT_EQ(cache.config.kernels.size(), 2u);  // tiny: 0.1 of 7.1 s < 5%
  EXPECT_EQ(cache.config.kernels[0].name, "prog:gather");
  EXPECT_EQ(cache.config.kernels[0].category, "cache");  // 2 CTAs 1.25x faster than 3
  EXPECT_EQ(cache.config.kernels[1].name, "cutcp-1");    // the config maps it to a Table II kernel
  EXPECT_EQ(cache.config.kernels[1].category, "compute");
  EXPECT_DOUBLE_EQ(cache.reports.time("prog:gather__baseline"), 4.0);
  EXPECT_DOUBLE_EQ(cache.reports.time("cutcp-1__ctas2"), 3.0);
  EXPECT_EQ(cache.measured["prog"]["tiny"]["analysed"], false);
  EXPECT_EQ(plan_cache_runs(program_config(), program_runs(1.25)).size(), 2u);  // dyncta, eqcta of prog

  const ProgramKernels memory = split_program_kernels(program_config(), program_runs(1.0));
  EXPECT_EQ(memory.config.kernels[0].category, "memory");
  EXPECT_TRUE(plan_cache_runs(program_config(), program_runs(1.0)).empty());
}

// A kernel's trace holds the epochs that end inside its launches (SM cycles back to back), the
// first of each launch marked: D1 leaves out the numBlocks reload that epoch holds.
TEST(EqualizerRealSplit, KernelTraceKeepsItsLaunchesEpochsAndMarksTheirStarts) {
  Json report = program_report("equalizer-perf", 1.0);
  const double cycles[] = {5000, 9000, 3000, 100};  // gather [0, 5000), fma [5000, 14000), gather [14000, 17000)
  for (size_t i = 0; i < 4; ++i) report["kernels"][i]["cycles"] = {{"sm", cycles[i]}};
  report["policy_trace"] = Json::array();
  for (int c : {4095, 8191, 12287, 16383}) report["policy_trace"].push_back({{"cycle", c}});
  const Json gather = kernel_trace(report, "gather");
  ASSERT_EQ(gather.size(), 2u);
  EXPECT_EQ(gather[0]["cycle"], 4095);
  EXPECT_EQ(gather[1]["cycle"], 16383);
  EXPECT_TRUE(gather[0].contains(kLaunchStart) && gather[1].contains(kLaunchStart));
  const Json fma = kernel_trace(report, "fma");
  ASSERT_EQ(fma.size(), 2u);
  EXPECT_TRUE(fma[0].contains(kLaunchStart));
  EXPECT_FALSE(fma[1].contains(kLaunchStart));
  EXPECT_TRUE(kernel_trace(report, "tiny").empty());  // no epoch ends inside its 100 cycles
}

}  // namespace
}  // namespace gpupm
