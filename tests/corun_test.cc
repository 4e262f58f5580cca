// Two applications co-running on disjoint SM sets (workload "apps" form): each
// app, co-running on its half of the 15-SM GPU, takes about as long as alone on
// as many SMs (static-point), and the report carries per-app results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <fstream>
#include <regex>

#include "gpupm/platform/gpu.h"
#include "gpupm/platform/run_setup.h"
#include "support/report_runner.h"
#include "support/test_support.h"

using gpupm::test::run_gpupm;
using gpupm::test::run_sim;
using gpupm::test::source_path;
using gpupm::test::temp_dir;
using nlohmann::json;

namespace {

json example() {
  std::string text = gpupm::test::read_file(source_path("configs/workloads/corun_example.json"));
  return json::parse(std::regex_replace(text, std::regex("(^|\\n)\\s*//[^\\n]*"), "$1"));
}

// App `i` of the example as a single-application workload file.
std::string alone(size_t i) {
  json app = example().at("apps").at(i);
  std::string path = temp_dir("corun_alone") + "/" + app.at("name").get<std::string>() + ".json";
  std::ofstream(path) << json{{"name", app.at("name")}, {"kernels", app.at("kernels")}}.dump();
  return path;
}

TEST(Corun, EachAppTakesAboutAsLongAsAloneOnItsShareOfSms) {
  auto co = run_sim("corun_example", "--policy baseline", "corun");
  ASSERT_EQ(co.status, 0) << co.output;
  const json& apps = co.report.at("apps");
  ASSERT_EQ(apps.size(), 2u);
  // Default split of 15 SMs: app 0 (compute) on 7, app 1 (stream) on 8.
  auto c7 = run_sim(alone(0), "--policy static-point --set policy.sms=7", "c7");
  auto s8 = run_sim(alone(1), "--policy static-point --set policy.sms=8", "s8");
  ASSERT_EQ(c7.status, 0) << c7.output;
  ASSERT_EQ(s8.status, 0) << s8.output;
  const json* solo[2] = {&c7.report, &s8.report};
  for (size_t a = 0; a < 2; ++a) {
    const json& r = apps[a];
    EXPECT_EQ(r.at("app"), a);
    EXPECT_EQ(r.at("kernels_done"), r.at("kernels_total"));
    EXPECT_EQ(r.at("kernels_done"), 2);
    double alone_s = solo[a]->at("total").at("sim_time_s").get<double>();
    double co_s = r.at("sim_time_s").get<double>();
    EXPECT_NEAR(co_s / alone_s, 1.0, 0.04) << r.at("name") << ": co-run " << co_s << " s, alone " << alone_s << " s";
    // Instructions per app are the app's own (exact), as counted alone.
    EXPECT_EQ(r.at("instructions"), solo[a]->at("total").at("instructions")) << r.at("name");
    EXPECT_FALSE(solo[a]->contains("apps"));
    for (const json& k : solo[a]->at("kernels")) EXPECT_FALSE(k.contains("app"));
  }
  // The compute app (fewer SM cycles of work on its SMs) finishes first; the run ends with the stream app.
  EXPECT_LT(apps[0].at("finish_s").get<double>(), apps[1].at("finish_s").get<double>());
  EXPECT_DOUBLE_EQ(apps[1].at("finish_s").get<double>(), co.report.at("total").at("sim_time_s").get<double>());
  // Kernel entries name their app, kernels of one app in order and back to back.
  size_t per_app[2] = {0, 0};
  double app_end[2] = {0, 0};
  for (const json& k : co.report.at("kernels")) {
    size_t a = k.at("app").get<size_t>();
    ASSERT_LT(a, 2u);
    EXPECT_EQ(k.at("name"), a == 0 ? "compute" : "streaming");
    EXPECT_EQ(k.at("launch"), per_app[a]++);
    EXPECT_NEAR(k.at("start_s").get<double>(), app_end[a], 1e-12);
    app_end[a] = k.at("start_s").get<double>() + k.at("sim_time_s").get<double>();
  }
  EXPECT_EQ(per_app[0], 2u);
  EXPECT_EQ(per_app[1], 2u);
  // The report with its apps list and app fields matches the schema.
  std::string why;
  EXPECT_TRUE(gpupm::test::report_matches_schema(co.out_dir + "/report.json", &why)) << why;
  // Co-running, the whole GPU executes both apps' instructions.
  EXPECT_EQ(co.report.at("total").at("instructions"),
            apps[0].at("instructions").get<uint64_t>() + apps[1].at("instructions").get<uint64_t>());
}

TEST(Corun, BadAppsInputExitsWith2NamingThePath) {
  json doc = example();
  doc["apps"][1]["sms"] = 8;
  std::string path = temp_dir("corun_bad") + "/bad.json";
  std::ofstream(path) << doc.dump();
  std::string out_dir = temp_dir("corun_bad_out"), output;
  int status = run_gpupm(
      "run --quiet --gpu " + source_path("configs/gpu/gtx480.json") + " --workload " + path + " --out " + out_dir,
      &output);
  EXPECT_EQ(status, 2) << output;
  EXPECT_NE(output.find(path), std::string::npos) << output;
  EXPECT_NE(output.find("apps[1].sms: unknown key"), std::string::npos) << output;
  EXPECT_NE(output.find("kernels"), std::string::npos) << output;  // the allowed keys
  EXPECT_FALSE(std::ifstream(out_dir + "/report.json").good());

  json three = example();
  three["apps"].push_back(three["apps"][0]);
  three["apps"][2]["name"] = "third";
  std::ofstream(path) << three.dump();
  status = run_gpupm("validate " + path, &output);
  EXPECT_EQ(status, 2) << output;
  EXPECT_NE(output.find("apps: expected an array of 1 to 2 elements, got 3"), std::string::npos) << output;

  // A per-kernel policy would mix the two applications' kernels: refused as input.
  status =
      run_gpupm("run --quiet --gpu " + source_path("configs/gpu/gtx480.json") + " --workload " +
                    source_path("configs/workloads/corun_example.json") + " --policy core-shutdown --out " + out_dir,
                &output);
  EXPECT_EQ(status, 2) << output;
  EXPECT_NE(output.find("apps: two co-running applications need a policy that handles them"), std::string::npos)
      << output;
}

// Gives app 0 SMs 0-6 and app 1 SMs 11-14 at the start (7-10 in neither mask),
// then, when app 0 is done, every SM to app 1.
class MoveSmsPolicy : public gpupm::Policy {
 public:
  std::string name() const override { return "test-move-sms"; }
  void on_start(gpupm::PolicyContext& ctx) override {
    try {
      ctx.set_app_sm_mask(0, std::vector<bool>(ctx.sm_count(), true));  // overlaps app 1's half
    } catch (const std::invalid_argument& e) {
      overlap_error = e.what();
    }
    ctx.set_app_sm_mask(1, range(ctx, 11, 15));
    ctx.set_app_sm_mask(0, range(ctx, 0, 7));
  }
  void on_kernel_end(gpupm::PolicyContext& ctx, const gpupm::KernelLaunch& k) override {
    if (k.app != 0 || k.launch != 1) return;
    for (uint32_t i = 0; i < ctx.sm_count(); ++i) insts_at_app0_end.push_back(ctx.sm(i).counters().insts);
    ctx.set_app_sm_mask(0, std::vector<bool>(ctx.sm_count(), false));
    ctx.set_app_sm_mask(1, std::vector<bool>(ctx.sm_count(), true));
  }
  static std::vector<bool> range(gpupm::PolicyContext& ctx, uint32_t lo, uint32_t hi) {
    std::vector<bool> m(ctx.sm_count(), false);
    for (uint32_t i = lo; i < hi; ++i) m[i] = true;
    return m;
  }
  std::string overlap_error;
  std::vector<uint64_t> insts_at_app0_end;
};

TEST(Corun, PolicyMovesSmsBetweenAppsAtRunTime) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);  // as an embedding platform does
  gpupm::RunInputs in;
  in.gpu_file = source_path("configs/gpu/gtx480.json");
  in.workload_file = source_path("configs/workloads/corun_example.json");
  gpupm::LoadedRun run = gpupm::load_run(in);
  auto policy = std::make_unique<MoveSmsPolicy>();
  MoveSmsPolicy* p = policy.get();
  gpupm::Gpu gpu("gpu", run.gpu, run.workload, std::move(policy));
  sc_core::sc_start();  // no limit: the GPU goes quiet once done
  ASSERT_TRUE(gpu.done());
  EXPECT_NE(p->overlap_error.find("disjoint"), std::string::npos) << p->overlap_error;
  uint64_t app_insts[2] = {0, 0};
  for (const auto& k : run.workload.launches) app_insts[k->app] += gpupm::launch_instructions(*k);
  // While app 1 was still running, SMs 0-6 had run exactly app 0, SMs 7-10 nothing.
  const auto& at = p->insts_at_app0_end;
  ASSERT_EQ(at.size(), 15u);
  uint64_t low = 0;
  for (uint32_t i = 0; i < 7; ++i) low += at[i];
  EXPECT_EQ(low, app_insts[0]);
  for (uint32_t i = 7; i < 11; ++i) EXPECT_EQ(at[i], 0u) << "sm" << i;
  uint64_t high = 0;
  for (uint32_t i = 11; i < 15; ++i) high += at[i];
  EXPECT_GT(high, 0u);
  EXPECT_LT(high, app_insts[1]);  // app 1 not done yet (it had only 4 SMs)
  // Afterwards app 1 used every SM, the idle ones included.
  ASSERT_EQ(gpu.kernels().size(), 4u);
  EXPECT_EQ(gpu.finish().sm.insts, app_insts[0] + app_insts[1]);
  double app0_end = 0;
  for (const auto& k : gpu.kernels())
    if (k.launch->app == 0) app0_end = std::max(app0_end, k.end.time_s);
  size_t alone = 0;
  for (const auto& k : gpu.kernels())
    if (k.launch->app == 1 && k.start.time_s >= app0_end) {  // app 1 alone: the GPU's instructions are its own
      EXPECT_EQ(k.end.sm.insts - k.start.sm.insts, gpupm::launch_instructions(*k.launch));
      ++alone;
    }
  EXPECT_EQ(alone, 1u);  // app 1's second kernel started after app 0 ended
}

}  // namespace
