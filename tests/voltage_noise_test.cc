// The power-delivery network inside a run: per-cycle SM currents from real
// activity (their integral is the power model's SM energy), the droop
// statistics in the report, the default staying off, and the impedance command.
#include <gtest/gtest.h>

#include "gpupm/platform/gpu.h"
#include "gpupm/platform/run_setup.h"
#include "support/report_runner.h"
#include "support/test_support.h"

#include <fstream>
#include <sstream>

namespace gpupm {
namespace {

TEST(VoltageNoise, PdnCurrentsCarryThePowerModelsSmEnergy) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);  // as an embedding platform does
  RunInputs in;
  in.gpu_file = test::source_path("configs/gpu/gtx480.json");
  in.workload_file = test::source_path("configs/workloads/cache_sensitive.json");
  in.pdn_file = test::source_path("configs/pdn/package_default.json");
  in.sets = {"workload.kernels[0].grid_ctas=60"};
  LoadedRun run = load_run(in);
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
  sc_core::sc_start();  // no limit: the GPU goes quiet once done
  ASSERT_TRUE(gpu.done());
  const PdnDriver* pdn = gpu.pdn();
  ASSERT_NE(pdn, nullptr);
  // Every SM cycle was stepped, ticked by the domain or skipped.
  EXPECT_NEAR(double(pdn->steps()), double(gpu.finish().sm_cycles), 2.0);
  EXPECT_EQ(pdn->stats().cycles(), pdn->steps());
  // Constant-current load at 1 V: charge x V = SM-domain energy (dynamic + leakage).
  const Energy& e = gpu.finish().energy;
  EXPECT_NEAR(pdn->amp_seconds() * 1.0, e.sm_domain(), 0.01 * e.sm_domain());
  // Mixed compute and memory phases: the currents moved, so the voltages did.
  EXPECT_GT(pdn->stats().worst_droop(), 0.02);
  EXPECT_LT(pdn->stats().worst_droop(), 0.25);
  uint64_t hist = 0;
  for (uint64_t c : pdn->stats().histogram()) hist += c;
  EXPECT_EQ(hist, pdn->stats().cycles());
}

TEST(VoltageNoise, ReportSectionOnlyWithTheNetworkAndItMatchesTheSchema) {
  auto off = test::run_sim("compute", "--set workload.kernels[0].grid_ctas=45", "vn_off");
  ASSERT_EQ(off.status, 0) << off.output;
  EXPECT_FALSE(off.report.contains("voltage_noise"));
  EXPECT_EQ(off.output.find("voltage noise"), std::string::npos);
  auto on = test::run_sim(
      "compute",
      "--pdn " + test::source_path("configs/pdn/package_default.json") + " --set workload.kernels[0].grid_ctas=45",
      "vn_on");
  ASSERT_EQ(on.status, 0) << on.output;
  ASSERT_TRUE(on.report.contains("voltage_noise"));
  const auto& v = on.report["voltage_noise"];
  EXPECT_EQ(v["network"], "default");
  EXPECT_EQ(v["worst_droop_by_sm"].size(), 15u);
  // The aligned kernel launch of a compute kernel: calibrated to the paper's
  // largest worst-case droop (~12%), docs/voltage_noise.md.
  EXPECT_GT(v["worst_droop"].get<double>(), 0.10);
  EXPECT_LT(v["worst_droop"].get<double>(), 0.14);
  EXPECT_GE(v["emergencies"].get<uint64_t>(), 1u);
  // The PDN does not change what the SMs do.
  EXPECT_EQ(on.report["total"]["instructions"], off.report["total"]["instructions"]);
  EXPECT_EQ(on.report["total"]["cycles"], off.report["total"]["cycles"]);
  EXPECT_NE(on.output.find("voltage noise: worst droop"), std::string::npos);
  std::string why;
  EXPECT_TRUE(gpupm::test::report_matches_schema(on.out_dir + "/report.json", &why)) << why;
}

TEST(VoltageNoise, BiggerPackageImpedanceBiggerDroop) {
  std::string args = " --set workload.kernels[0].grid_ctas=45";
  auto a = test::run_sim("compute", "--pdn " + test::source_path("configs/pdn/package_default.json") + args, "pk0");
  auto b = test::run_sim("compute", "--pdn " + test::source_path("configs/pdn/package_I.json") + args, "pk1");
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  // Package I is the default network at twice the impedance scale: linear, so twice the droop.
  EXPECT_NEAR(b.report["voltage_noise"]["worst_droop"].get<double>(),
              2.0 * a.report["voltage_noise"]["worst_droop"].get<double>(), 0.002);
}

TEST(VoltageNoise, BadPdnInputExitsTwoNamingThePath) {
  std::string out;
  int rc = test::run_gpupm("run --gpu " + test::source_path("configs/gpu/gtx480.json") + " --workload " +
                               test::source_path("configs/workloads/compute.json") + " --out " +
                               test::temp_dir("vn_bad") + " --set gpu.pdn.model=rlc --set gpu.pdn.network.scael=1",
                           &out);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find("pdn.network"), std::string::npos) << out;
  rc = test::run_gpupm("run --gpu " + test::source_path("configs/gpu/gtx480.json") + " --workload " +
                           test::source_path("configs/workloads/compute.json") + " --out " + test::temp_dir("vn_bad2") +
                           " --set gpu.pdn.model=spice",
                       &out);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find("ideal"), std::string::npos) << out;
}

TEST(VoltageNoise, ShippedPackagesValidate) {
  std::string out, files;
  for (const char* p : {"default", "I", "II", "III"})
    files += " " + test::source_path("configs/pdn/package_" + std::string(p) + ".json");
  EXPECT_EQ(test::run_gpupm("validate" + files, &out), 0) << out;
  EXPECT_NE(out.find("ok (pdn package)"), std::string::npos) << out;
}

TEST(VoltageNoise, ImpedanceCommandFindsBothResonancesAndWritesCsv) {
  std::string dir = test::temp_dir("imp");
  std::string out;
  ASSERT_EQ(test::run_gpupm("impedance --gpu " + test::source_path("configs/gpu/gtx480.json") + " --pdn " +
                                test::source_path("configs/pdn/package_III.json") + " --out " + dir,
                            &out),
            0)
      << out;
  EXPECT_NE(out.find("second-order resonance"), std::string::npos) << out;
  EXPECT_NE(out.find("first-order resonance"), std::string::npos) << out;
  std::ifstream meta(dir + "/impedance.json");
  ASSERT_TRUE(meta.good());
  Json m = Json::parse(meta);
  EXPECT_EQ(m["network"], "III");
  EXPECT_GT(m["second_order"]["hz"].get<double>(), 0.5e6);
  EXPECT_LT(m["second_order"]["hz"].get<double>(), 3e6);
  EXPECT_GT(m["first_order"]["hz"].get<double>(), 50e6);
  EXPECT_LT(m["first_order"]["hz"].get<double>(), 200e6);
  EXPECT_GT(m["first_order"]["ohm"].get<double>(), m["second_order"]["ohm"].get<double>());
  std::ifstream csv(dir + "/impedance.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("freq_hz,chip_ohm", 0), 0u);
  size_t rows = 0;
  for (std::string line; std::getline(csv, line);) ++rows;
  EXPECT_EQ(rows, 501u);  // 10 kHz .. 1 GHz, 100 per decade
  // An unknown key in the package is bad input.
  EXPECT_EQ(test::run_gpupm("impedance --gpu " + test::source_path("configs/gpu/gtx480.json") + " --set pdn.network=" +
                                test::source_path("configs/pdn/package_I.json") + " --set pdn.stats.margn=0.1",
                            &out),
            2)
      << out;
}

}  // namespace
}  // namespace gpupm
