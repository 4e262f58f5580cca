// The Gpu driven through its host interface (docs/embedding.md, "Host
// interface") by a small host model: LT b_transport on host_in, a polled
// STATUS and the irq_o line. A host-launched run gives the CLI's report; one
// launched kernel by kernel starts each launch exactly when the host rang.
// Each test is its own process.
#include <gtest/gtest.h>

#include "gpupm/platform/gpu.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/report/report_writer.h"
#include "support/report_runner.h"
#include "support/host_model.h"
#include "support/sc_bench.h"
#include "support/test_support.h"

#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>
#include <optional>

namespace gpupm {
namespace {

using namespace host_reg;
using sc_core::SC_NS;
using sc_core::sc_time;
using test::HostModel;

RunInputs inputs(const std::string& workload, const std::string& policy = "baseline") {
  RunInputs in;
  in.gpu_file = test::source_path("configs/gpu/gtx480.json");
  in.workload_file = test::source_path(workload);
  in.policy = policy;
  return in;
}

HostInterfaceOptions host_launched() {
  HostInterfaceOptions o;
  o.host_launches = true;
  return o;
}

// Launch everything and end the run at time 0 (decoupled, with no access
// latency: a write acts at the host's local time), then poll STATUS
// every microsecond until the run has ended; the interrupt says so too.
void launch_all_then_poll(HostModel& h) {
  h.decoupled = true;
  h.write(kIrqEnable, kIrqRunDone);
  h.write(kLaunchFirst, 0);
  h.write(kLaunchCount, h.read(kLaunchEntries));
  h.write(kDoorbell, kCommandLaunch);
  h.write(kDoorbell, kCommandEndRun);
  EXPECT_EQ(h.now(), 6 * h.latency);
  h.sync();
  h.decoupled = false;
  while (!(h.read(kStatus) & kStatusRunEnded)) {
    EXPECT_TRUE(h.read(kStatus) & kStatusBusy);
    sc_core::wait(1000, SC_NS);
  }
  EXPECT_EQ(h.read(kIrqStatus), kIrqLaunchDone | kIrqRunDone);  // only RUN_DONE was enabled
  EXPECT_EQ(h.read(kCommandsDone), 1u);
  EXPECT_EQ(h.read(kErrorCode), 0u);
  h.write(kCountersLatch, 1);
}

uint64_t counter(HostModel& h, uint32_t index) {
  return uint64_t(h.read(kCounters + 8 * index)) | uint64_t(h.read(kCounters + 8 * index + 4)) << 32;
}

// The host-launched run's report is the CLI's; the counters latched after the
// end are the report's totals.
void expect_cli_report(const std::string& workload) {
  LoadedRun run = load_run(inputs(workload));
  HostInterfaceOptions options = host_launched();
  options.access_latency_ns = 0;
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy), options);
  HostModel host("host");
  host.latency = sc_core::SC_ZERO_TIME;
  host.bus.bind(gpu.host_in);
  host.irq.bind(gpu.irq_o);
  uint64_t insts = 0, sm_cycles = 0;
  double energy = 0;
  host.script = [&](HostModel& h) {
    launch_all_then_poll(h);
    insts = counter(h, 0);
    sm_cycles = counter(h, 1);
    const uint64_t bits = counter(h, 4);
    std::memcpy(&energy, &bits, 8);
  };
  sc_core::sc_start();
  ASSERT_TRUE(gpu.done());
  ASSERT_EQ(host.irq_rises.size(), 1u);
  EXPECT_EQ(host.irq_rises[0].to_seconds(), gpu.finish().time_s);
  EXPECT_TRUE(gpu.irq_o.read());

  const Json embedded = build_report(gpu, run.doc);
  test::RunResult cli = test::run_sim(test::source_path(workload), "", "host");
  ASSERT_EQ(cli.status, 0) << cli.output;
  EXPECT_EQ(embedded, cli.report) << "host-launched and CLI reports differ";
  EXPECT_EQ(insts, cli.report["total"]["instructions"].get<uint64_t>());
  EXPECT_EQ(sm_cycles, cli.report["total"]["cycles"]["sm"].get<uint64_t>());
  EXPECT_EQ(energy, gpu.finish().energy.total());
}

class HostInterface : public test::ScTest {};

TEST_F(HostInterface, HostLaunchedProfileWorkloadGivesTheCliReport) {
  expect_cli_report("configs/workloads/compute.json");
}

TEST_F(HostInterface, HostLaunchedProgramGivesTheCliReport) {
  expect_cli_report("configs/workloads/cuda/fma_loop/fma_loop.json");
}

// Entry by entry, each after the previous one's interrupt: nothing runs before
// the first doorbell, and each launch starts when its doorbell rang.
TEST_F(HostInterface, InterruptDrivenLaunchesStartAtTheirDoorbell) {
  LoadedRun run = load_run(inputs("configs/workloads/cuda/reduce/reduce.json"));
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy), host_launched());
  HostModel host("host");
  host.bus.bind(gpu.host_in);
  host.irq.bind(gpu.irq_o);
  std::vector<sc_time> rang;
  host.script = [&](HostModel& h) {
    sc_core::wait(2000, SC_NS);
    EXPECT_EQ(gpu.kernels_done(), 0u);
    EXPECT_EQ(h.read(kStatus), kStatusHostLaunches);
    h.write(kIrqEnable, kIrqLaunchDone | kIrqRunDone);
    const uint32_t entries = h.read(kLaunchEntries);
    EXPECT_EQ(entries, 2u);
    for (uint32_t e = 0; e < entries; ++e) {
      h.write(kLaunchFirst, e);
      h.write(kLaunchCount, 1);
      rang.push_back(h.now());
      h.write(kDoorbell, kCommandLaunch);
      sc_core::wait(h.irq.posedge_event());
      EXPECT_EQ(h.read(kIrqStatus), kIrqLaunchDone);
      h.write(kIrqStatus, kIrqLaunchDone);
    }
    h.write(kDoorbell, kCommandEndRun);
    sc_core::wait(h.irq.posedge_event());
    EXPECT_EQ(h.read(kStatus), kStatusHostLaunches | kStatusRunEnded);
  };
  sc_core::sc_start();
  ASSERT_TRUE(gpu.done());
  ASSERT_EQ(gpu.kernels().size(), 2u);
  ASSERT_EQ(host.irq_rises.size(), 3u);
  for (size_t e = 0; e < 2; ++e) {
    EXPECT_EQ(gpu.kernels()[e].start.time_s, rang[e].to_seconds()) << e;
    EXPECT_EQ(gpu.kernels()[e].end.time_s, host.irq_rises[e].to_seconds()) << e;  // launch gap 0
  }
  EXPECT_EQ(host.irq_rises[1],
            rang[1] + (gpu.kernels()[1].end.time_s - gpu.kernels()[1].start.time_s) * sc_time(1, sc_core::SC_SEC));
  // The program computed what the CLI's run did: the same warp instructions per launch.
  const Json embedded = build_report(gpu, run.doc);
  test::RunResult cli = test::run_sim(test::source_path("configs/workloads/cuda/reduce/reduce.json"), "", "reduce");
  ASSERT_EQ(cli.status, 0) << cli.output;
  ASSERT_EQ(embedded["kernels"].size(), cli.report["kernels"].size());
  for (size_t k = 0; k < cli.report["kernels"].size(); ++k)
    EXPECT_EQ(embedded["kernels"][k]["instructions"], cli.report["kernels"][k]["instructions"]) << k;
}

// Temporal decoupling: a host 5 us ahead of simulated time writes the
// descriptor and rings; the launch starts at the doorbell's local time, not at
// the time of the call. Debug reads take no time.
TEST_F(HostInterface, ADoorbellWrittenAheadStartsItsLaunchAtItsLocalTime) {
  LoadedRun run = load_run(inputs("configs/workloads/cuda/reduce/reduce.json"));
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy), host_launched());
  HostModel host("host");
  host.bus.bind(gpu.host_in);
  host.irq.bind(gpu.irq_o);
  sc_time rang;
  host.script = [&](HostModel& h) {
    h.decoupled = true;
    h.offset = sc_time(5, sc_core::SC_US);
    EXPECT_EQ(h.debug_read(kLaunchEntries), std::optional<uint32_t>(2));
    EXPECT_EQ(h.debug_read(kDoorbell), std::nullopt);  // write-only
    h.write(kLaunchFirst, 0);
    h.write(kLaunchCount, 2);
    rang = h.now();
    h.write(kDoorbell, kCommandLaunch);
    h.write(kDoorbell, kCommandEndRun);
    h.sync();
    h.decoupled = false;
    while (!(h.read(kStatus) & kStatusRunEnded)) sc_core::wait(1000, SC_NS);
  };
  sc_core::sc_start();
  ASSERT_TRUE(gpu.done());
  ASSERT_EQ(gpu.kernels().size(), 2u);
  EXPECT_EQ(rang, sc_time(5020, SC_NS));  // 5 us ahead, then two accesses of 10 ns
  EXPECT_EQ(gpu.kernels()[0].start.time_s, rang.to_seconds());
}

// Without host launches the GPU runs by itself; the host still reads the V/F
// levels, the counters (latched mid-run, then the totals) and the policy's registers.
TEST_F(HostInterface, ObservesASelfRunningGpu) {
  LoadedRun run = load_run(inputs("configs/workloads/compute.json", "equalizer-perf"));
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
  HostModel host("host");
  host.bus.bind(gpu.host_in);
  host.irq.bind(gpu.irq_o);
  host.script = [&](HostModel& h) {
    EXPECT_EQ(h.read(kStatus), 0u);
    EXPECT_EQ(h.read(kVfSm), run.gpu.dvfs[Domain::Sm].nominal);
    EXPECT_EQ(h.read(kVfSmKhz), uint32_t(run.gpu.dvfs[Domain::Sm].levels[run.gpu.dvfs[Domain::Sm].nominal].mhz * 1000));
    EXPECT_EQ(h.read(kPolicyCsr + 0x000), 1u);        // Equalizer's CTRL: enabled, performance mode
    EXPECT_EQ(h.read(kPolicyCsr + 0x004) & 0xF, 7u);  // TIMING: 128-cycle samples
    EXPECT_EQ(h.debug_read(kPolicyCsr + 0x000), std::optional<uint32_t>(1));  // the window's debug reads
    h.write(kDoorbell, kCommandLaunch);
    EXPECT_EQ(h.read(kErrorCode), uint32_t(kNotHostLaunched));
    sc_core::wait(5000, SC_NS);
    const sc_time latched_at = sc_core::sc_time_stamp();
    h.write(kCountersLatch, 1);
    const uint64_t insts = counter(h, 0), time_fs = counter(h, 3);
    EXPECT_GT(insts, 0u);
    EXPECT_EQ(time_fs, uint64_t(latched_at.to_seconds() * 1e15 + 0.5));
    while (!gpu.done()) sc_core::wait(1000, SC_NS);
    h.write(kCountersLatch, 1);
    EXPECT_GT(counter(h, 0), insts);
    EXPECT_EQ(counter(h, 3), uint64_t(gpu.finish().time_s * 1e15 + 0.5));
  };
  sc_core::sc_start();
  EXPECT_TRUE(gpu.done());
  EXPECT_TRUE(host.irq_rises.empty());  // the ERROR cause was never enabled
}

TEST_F(HostInterface, TwoCoRunningApplicationsCannotBeHostLaunched) {
  LoadedRun run = load_run(inputs("configs/workloads/corun_example.json"));
  try {
    Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy), host_launched());
    FAIL() << "a two-application workload was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("one application"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpupm
