// PowerModel with fake SM status objects, a MemActivity struct and a real
// FrequencyManager + VoltageRegulator. Each TEST elaborates one design.
#include "gpupm/power/power_model.h"

#include "gpupm/clock/clock_domain.h"
#include "gpupm/freq/frequency_manager.h"
#include "gpupm/vr/voltage_regulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/dvfs_fixture.h"

#include <cmath>
#include <memory>

namespace gpupm {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

struct PowerFakeSm : SmStatus {
  SmCounters c;
  SmCounters counters() const override { return c; }
  WarpStateCounts sample_states() const override { return {}; }
  WarpVectors warp_vectors() const override { return {}; }
  uint32_t resident_ctas() const override { return 0; }
  uint32_t active_warps() const override { return 0; }
  uint32_t unstalled_warps() const override { return 0; }
};

DvfsConfig dvfs() { return test::three_level_dvfs(800, 1500); }

class PowerModelTest : public test::ScTest {
 protected:
  void SetUp() override { b = std::make_unique<test::DvfsBench>("bench", dvfs()); }
  // Call after setting pc: builds the model and settles it before every V/F change.
  void make() {
    pm = std::make_unique<PowerModel>(pc, dram_data_rate, std::vector<const SmStatus*>{&sm0, &sm1}, mem, b->vr, b->fm);
    b->fm.before_change = [this] { pm->checkpoint(); };
  }
  PowerConfig pc;
  uint32_t dram_data_rate = 4;  // GDDR5 QDR (MemConfig's default)
  PowerFakeSm sm0, sm1;
  MemActivity mem;
  std::unique_ptr<test::DvfsBench> b;
  std::unique_ptr<PowerModel> pm;
};

TEST_F(PowerModelTest, DynamicEnergyScalesWithVoltageSquared) {
  make();
  double e_low = 0, e_high = 0;
  b->body = [&] {
    b->request(Domain::Sm, 0, /*immediate=*/true);  // 0.85 V from time 0
    b->at_ns(100);
    sm0.c.insts = 1000;
    sm0.c.alu_insts = 600;
    sm1.c.sfu_insts = 10;
    sm1.c.mem_insts = 20;
    sm1.c.lsu.l1_hits = 30;
    sm1.c.lsu.l1_misses = 5;
    sm1.c.lsu.store_lines = 5;
    pm->checkpoint();
    e_low = pm->energy().sm_dynamic;
    b->at_ns(200);
    b->request(Domain::Sm, 2, /*immediate=*/true);  // 1.15 V
    b->at_ns(300);
    sm0.c.insts += 1000;
    sm0.c.cycles = 100;  // 60 busy, 10 gated, 30 idle
    sm0.c.busy_cycles = 60;
    sm0.c.gated_cycles = 10;
    pm->checkpoint();
    e_high = pm->energy().sm_dynamic - e_low;
  };
  sc_core::sc_start(sc_time(400, SC_NS));
  double nj_low = 1000 * pc.inst_nj + 600 * pc.alu_nj + 10 * pc.sfu_nj + 20 * pc.ldst_nj + 40 * pc.l1_line_nj;
  EXPECT_NEAR(e_low, nj_low * 0.85 * 0.85 * 1e-9, 1e-15);
  double nj_high = 1000 * pc.inst_nj + 60 * pc.sm_busy_cycle_nj + 30 * pc.sm_idle_cycle_nj;
  EXPECT_NEAR(e_high, nj_high * 1.15 * 1.15 * 1e-9, 1e-15);
  EXPECT_DOUBLE_EQ(PowerModel::scale_dynamic(2.0, 0.85, 1.0), 2.0 * 0.85 * 0.85);
}

TEST_F(PowerModelTest, LeakageIsLinearInTimeScalesWithVoltageAndStopsWhenGated) {
  pc.leakage_voltage_exponent = 2.5;
  make();
  std::vector<double> leak;
  b->body = [&] {
    for (double t : {1000.0, 3000.0}) {
      b->at_ns(t);
      sm0.c.cycles = sm1.c.cycles = uint64_t(t);
      sm1.c.gated_cycles = sm1.c.cycles;  // sm1 always gated
      pm->checkpoint();
      leak.push_back(pm->energy().sm_leakage);
    }
    b->request(Domain::Sm, 0, /*immediate=*/true);
    b->at_ns(5000);
    sm0.c.cycles = sm1.c.cycles = sm1.c.gated_cycles = 5000;
    pm->checkpoint();
    leak.push_back(pm->energy().sm_leakage);
  };
  sc_core::sc_start(sc_time(6000, SC_NS));
  ASSERT_EQ(leak.size(), 3u);
  EXPECT_NEAR(leak[0], pc.sm_leakage_w * 1e-6, 1e-15);
  EXPECT_NEAR(leak[1], pc.sm_leakage_w * 3e-6, 1e-15);
  EXPECT_NEAR(leak[2] - leak[1], pc.sm_leakage_w * std::pow(0.85, 2.5) * 2e-6, 1e-15);
}

TEST_F(PowerModelTest, DramStandbyFollowsDataRateAndVoltage) {
  make();
  // I_dd2n x (1 + 0.3 x (rate - 3.2 Gbps) / (6 - 3.2 Gbps)) x Vdd x V/V0 x chips; rate = 4 x MHz.
  auto watts = [&](double mhz, double v) {
    double gbps = mhz * 4 / 1000;
    return 0.5 * (1 + 0.3 * (gbps - 3.2) / 2.8) * 1.5 * v * 12;
  };
  EXPECT_DOUBLE_EQ(pm->dram_standby_watts(800, 1.0), 0.5 * 1.5 * 12);         // 3.2 Gbps: I_dd2n
  EXPECT_DOUBLE_EQ(pm->dram_standby_watts(1500, 1.0), 0.5 * 1.3 * 1.5 * 12);  // 6 Gbps: +30%
  EXPECT_DOUBLE_EQ(pm->dram_standby_watts(924, 0.9), watts(924, 0.9));
  b->body = [&] {
    b->at_ns(2000);
    b->request(Domain::Mem, 2, /*immediate=*/true);  // 1500 MHz, 1.1 V
    b->at_ns(3000);
    pm->checkpoint();
  };
  sc_core::sc_start(sc_time(3500, SC_NS));
  EXPECT_NEAR(pm->energy().dram_standby, watts(924, 1.0) * 2e-6 + watts(1500, 1.1) * 1e-6, 1e-15);
}

TEST_F(PowerModelTest, ConstantMemoryAndDomainSums) {
  make();
  b->body = [&] {
    b->at_ns(500);
    mem.l2_hits = 10;
    mem.l2_misses = 4;
    mem.icnt_flits = 100;
    mem.l2_cycles = 300;
    mem.dram_activates = 2;
    mem.dram_reads = 3;
    mem.dram_writes = 1;
    sm0.c.insts = 50;
    sm0.c.cycles = sm1.c.cycles = 350;
    pm->checkpoint();
  };
  sc_core::sc_start(sc_time(600, SC_NS));
  const Energy& e = pm->energy();
  EXPECT_NEAR(e.constant, pc.constant_w * 500e-9, 1e-18);
  EXPECT_NEAR(e.mem_dynamic, (14 * pc.l2_access_nj + 100 * pc.icnt_flit_nj + 300 * pc.mem_cycle_nj) * 1e-9, 1e-18);
  EXPECT_NEAR(e.dram_dynamic, (2 * pc.dram_activate_nj + 3 * pc.dram_read_nj + 1 * pc.dram_write_nj) * 1e-9, 1e-18);
  EXPECT_NEAR(e.mem_leakage, pc.mem_leakage_w * 500e-9, 1e-18);
  EXPECT_NEAR(e.sm_leakage, 2 * pc.sm_leakage_w * 500e-9, 1e-18);
  EXPECT_NEAR(e.sm_dynamic, (50 * pc.inst_nj + 700 * pc.sm_idle_cycle_nj) * 1e-9, 1e-18);
  EXPECT_DOUBLE_EQ(e.sm_domain(), e.sm_dynamic + e.sm_leakage);
  EXPECT_DOUBLE_EQ(e.mem_domain(), e.mem_dynamic + e.mem_leakage + e.dram_dynamic + e.dram_standby);
  EXPECT_DOUBLE_EQ(e.total(), e.sm_domain() + e.mem_domain() + e.constant);
  nlohmann::json j = e.to_json();
  EXPECT_DOUBLE_EQ(j["total"].get<double>(), e.total());
  EXPECT_DOUBLE_EQ(j["by_domain"]["mem"].get<double>(), e.mem_domain());
  EXPECT_DOUBLE_EQ(j["by_component"]["dram_standby"].get<double>(), e.dram_standby);
  Energy half = e - e;
  EXPECT_EQ(half.total(), 0.0);
}

}  // namespace
}  // namespace gpupm
