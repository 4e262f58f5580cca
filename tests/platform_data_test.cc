// memory.data "platform" (docs/embedding.md#data-through-the-sockets): a host
// puts a program's inputs in the platform's memory, launches its kernels with
// descriptors (LAUNCH_KERNEL) whose pointers are platform addresses, and reads
// the results back from that memory. Beside it, in the same simulation, the
// same program runs from its workload's own buffers (its launch entries
// queued by an equal host) on an equal memory. The platform's buffers sit at
// the addresses the workload's get (ptx::DeviceMemory's layout), so the data
// path may change nothing of the timing: the two runs' reports must match
// field for field, and the results byte for byte. Each test is its own process.
#include <gtest/gtest.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_get.h>

#include "gpupm/platform/gpu.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/program/npy.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/report/report_writer.h"
#include "support/host_model.h"
#include "support/sc_bench.h"
#include "support/test_support.h"

#include <cstring>
#include <map>

namespace gpupm {
namespace {

using namespace host_reg;
using sc_core::SC_NS;
using sc_core::sc_time;
using test::HostModel;

constexpr uint64_t kRamBase = ptx::DeviceMemory::kBase;
constexpr uint64_t kRamBytes = 256 * 1024;

// The platform's memory, a fixed 200 ns per line request: loosely timed
// (b_transport, the latency added to the annotation) or approximately timed
// (nb_transport: END_REQ at once, BEGIN_RESP 200 ns later); its bytes
// reachable by debug transport and, if `dmi`, by DMI.
class PlatformRam : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<PlatformRam> in{"in"};
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kRamBytes, 0);
  uint64_t timing_reads = 0, debug_accesses = 0, dmi_grants = 0;

  PlatformRam(sc_core::sc_module_name name, bool dmi) : sc_module(name), dmi_(dmi) {
    in.register_b_transport(this, &PlatformRam::b_transport);
    in.register_nb_transport_fw(this, &PlatformRam::nb_transport_fw);
    in.register_transport_dbg(this, &PlatformRam::transport_dbg);
    in.register_get_direct_mem_ptr(this, &PlatformRam::get_direct_mem_ptr);
    SC_HAS_PROCESS(PlatformRam);
    SC_METHOD(respond);
    sensitive << due_.get_event();
    dont_initialize();
  }
  uint8_t* at(uint64_t addr) { return bytes.data() + (addr - kRamBase); }

 private:
  bool inside(uint64_t addr, uint64_t n) const { return addr >= kRamBase && addr + n <= kRamBase + kRamBytes; }
  // The line requests, served as a RAM serves any initiator: with their data,
  // byte enables honoured (the GPU's line writes must enable none).
  void b_transport(int, tlm::tlm_generic_payload& gp, sc_time& delay) {
    delay += sc_time(200, SC_NS);
    serve(gp);
  }
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time&) {
    serve(gp);
    port_of_[&gp] = port;
    due_.notify(gp, sc_time(200, SC_NS));
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void respond() {
    while (tlm::tlm_generic_payload* gp = due_.get_next_transaction()) {
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_time zero = sc_core::SC_ZERO_TIME;
      const int port = port_of_.at(gp);
      port_of_.erase(gp);
      in[port]->nb_transport_bw(*gp, phase, zero);
    }
  }
  void serve(tlm::tlm_generic_payload& gp) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    const uint64_t addr = gp.get_address();
    const unsigned n = gp.get_data_length();
    if (gp.is_read()) ++timing_reads;
    if (!inside(addr, n)) return;  // the GPU's own window, local memory, code: timing only
    const unsigned char* enable = gp.get_byte_enable_ptr();
    for (unsigned i = 0; i < n; ++i) {
      if (gp.is_read()) gp.get_data_ptr()[i] = *at(addr + i);
      else if (!enable || enable[i % gp.get_byte_enable_length()] == TLM_BYTE_ENABLED)
        *at(addr + i) = gp.get_data_ptr()[i];
    }
  }
  unsigned transport_dbg(int, tlm::tlm_generic_payload& gp) {
    const unsigned n = gp.get_data_length();
    if (!inside(gp.get_address(), n)) return 0;
    ++debug_accesses;
    if (gp.is_write()) std::memcpy(at(gp.get_address()), gp.get_data_ptr(), n);
    else std::memcpy(gp.get_data_ptr(), at(gp.get_address()), n);
    return n;
  }
  bool get_direct_mem_ptr(int, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    if (!dmi_ || !inside(gp.get_address(), 1)) return false;
    ++dmi_grants;
    dmi.set_dmi_ptr(bytes.data());
    dmi.set_start_address(kRamBase);
    dmi.set_end_address(kRamBase + kRamBytes - 1);
    dmi.allow_read_write();
    return true;
  }
  bool dmi_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> due_{"due"};
  std::map<const tlm::tlm_generic_payload*, int> port_of_;
};

// kmeans (configs/workloads/cuda/kmeans): its buffers where ptx::DeviceMemory
// puts them (256-byte aligned, in the order of their names, as the workload's
// "buffers" object is read), its parameter blocks after them.
struct KmeansLayout {
  static constexpr uint64_t assignment = kRamBase, centroids = assignment + 8192 * 4, points = centroids + 256,
                            params = points + 32768 * 4;
  static constexpr uint32_t n = 8192, k = 8;
};

struct AssignParams {  // kmeans_assign(points, centroids, assignment, n, k), laid out as the PTX .param space
  uint64_t points, centroids, assignment;
  int32_t n, k;
};
struct UpdateParams {  // kmeans_update(points, assignment, centroids, n)
  uint64_t points, assignment, centroids;
  int32_t n;
};

RunInputs kmeans_run(bool platform_data, bool loosely_timed = true) {
  RunInputs in;
  in.gpu_file = test::source_path("configs/gpu/gtx480.json");
  in.workload_file = test::cuda_workload("kmeans");
  in.sets = {"gpu.memory.system=external", loosely_timed ? "gpu.memory.protocol=lt" : "gpu.memory.protocol=at"};
  if (platform_data) in.sets.push_back("gpu.memory.data=platform");
  return in;
}

HostInterfaceOptions instant_host() {  // every launch queued at time 0
  HostInterfaceOptions o;
  o.host_launches = true;
  o.access_latency_ns = 0;
  return o;
}

// One GPU running kmeans on a PlatformRam of its own, driven by a host model
// with no access latency; `name` prefixes the modules' names.
struct PlatformBench {
  LoadedRun run;
  Gpu gpu;
  PlatformRam ram;
  HostModel host;
  PlatformBench(const std::string& name, bool platform_data, bool dmi, bool loosely_timed = true)
      : run(load_run(kmeans_run(platform_data, loosely_timed))),
        gpu((name + "_gpu").c_str(), run.gpu, run.workload, std::move(run.policy), instant_host()),
        ram((name + "_ram").c_str(), dmi),
        host((name + "_host").c_str()) {
    for (auto& socket : gpu.mem_out()) socket.bind(ram.in);
    host.latency = sc_core::SC_ZERO_TIME;
    host.bus.bind(gpu.host_in);
    host.irq.bind(gpu.irq_o);
  }
};

void wait_for_the_end(HostModel& h) {
  while (!(h.read(kStatus) & kStatusRunEnded)) sc_core::wait(1000, SC_NS);
  EXPECT_EQ(h.read(kErrorCode), 0u);
}

// The workload's own program: 9 launches, assign and update alternating.
void launch_kernels(HostModel& h, PlatformRam& ram) {
  using L = KmeansLayout;
  const std::string dir = test::source_path("configs/workloads/cuda/kmeans/");
  const NpyArray points = read_npy(dir + "points.npy"), centroids = read_npy(dir + "centroids0.npy");
  std::memcpy(ram.at(L::points), points.bytes.data(), points.bytes.size());
  std::memcpy(ram.at(L::centroids), centroids.bytes.data(), centroids.bytes.size());
  const AssignParams assign{L::points, L::centroids, L::assignment, L::n, L::k};
  const UpdateParams update{L::points, L::assignment, L::centroids, L::n};
  std::memcpy(ram.at(L::params), &assign, sizeof assign);
  std::memcpy(ram.at(L::params + 64), &update, sizeof update);
  EXPECT_EQ(h.read(kKernelCount), 2u);  // kmeans_assign, kmeans_update: in order of first launch
  EXPECT_EQ(h.read(kLaunchEntries), 0u);
  for (uint32_t i = 0; i < 9; ++i) {
    const bool is_assign = i % 2 == 0;
    h.write(kKernel, is_assign ? 0 : 1);
    h.write(kGrid, is_assign ? 64 : 8);
    h.write(kBlock, is_assign ? 128 : 256);
    const uint64_t params = L::params + (is_assign ? 0 : 64);
    h.write(kParamsLo, uint32_t(params));
    h.write(kParamsHi, uint32_t(params >> 32));
    h.write(kParamsSize, is_assign ? sizeof assign : sizeof update);
    h.write(kDoorbell, kCommandLaunchKernel);
    EXPECT_EQ(h.read(kErrorCode), 0u) << "launch " << i;
  }
  h.write(kDoorbell, kCommandEndRun);
  wait_for_the_end(h);
}

// The workload's launches entries, all in one command.
void queue_entries(HostModel& h) {
  h.write(kLaunchFirst, 0);
  h.write(kLaunchCount, h.read(kLaunchEntries));
  h.write(kDoorbell, kCommandLaunch);
  h.write(kDoorbell, kCommandEndRun);
  wait_for_the_end(h);
}

std::vector<uint8_t> npy_bytes(const std::string& file) { return read_npy(file).bytes; }

void the_same_run_and_results(bool dmi, bool loosely_timed = true) {
  PlatformBench own("workload", false, dmi, loosely_timed), platform("platform", true, dmi, loosely_timed);
  own.host.script = queue_entries;
  platform.host.script = [&](HostModel& h) { launch_kernels(h, platform.ram); };
  sc_core::sc_start();
  ASSERT_TRUE(own.gpu.done() && platform.gpu.done());
  const PlatformRam &workload_ram = own.ram, &platform_ram = platform.ram;

  const std::string dir = test::temp_dir("platform_data");
  dump_program_buffers(own.run.workload, dir);
  using L = KmeansLayout;
  const uint8_t* assignment = platform.ram.at(L::assignment);
  const uint8_t* centroids = platform.ram.at(L::centroids);
  EXPECT_EQ(std::vector<uint8_t>(assignment, assignment + L::n * 4), npy_bytes(dir + "/assignment.npy"));
  EXPECT_EQ(std::vector<uint8_t>(centroids, centroids + L::k * 16), npy_bytes(dir + "/centroids.npy"));
  EXPECT_EQ(platform_ram.timing_reads, workload_ram.timing_reads);
  EXPECT_EQ(workload_ram.debug_accesses, 0u);  // the workload's data never left the GPU
  if (dmi) {
    EXPECT_GT(platform_ram.dmi_grants, 0u);
    EXPECT_EQ(platform_ram.debug_accesses, 0u);
  } else {
    EXPECT_GT(platform_ram.debug_accesses, uint64_t(L::n));  // every load and store of every point
  }

  Json a = build_report(own.gpu, own.run.doc), b = build_report(platform.gpu, platform.run.doc);
  for (const char* part : {"total", "kernels", "memory"}) EXPECT_EQ(a[part], b[part]) << part;
  EXPECT_GT(a["total"]["instructions"].get<uint64_t>(), 0u);
}

class PlatformDataPath : public test::ScTest {};

TEST_F(PlatformDataPath, ResultsAndTimingAreTheWorkloadsThroughDmi) { the_same_run_and_results(true); }

TEST_F(PlatformDataPath, ResultsAndTimingAreTheWorkloadsThroughDebugTransport) { the_same_run_and_results(false); }

// The same over an approximately-timed memory (nb_transport): the line writes'
// byte enables and the data path do not depend on the timing protocol.
TEST_F(PlatformDataPath, ResultsAndTimingAreTheWorkloadsOverAnAtMemory) { the_same_run_and_results(true, false); }

// What the GPU refuses, each with its ERROR_CODE; a refused launch runs nothing.
TEST_F(PlatformDataPath, BadDescriptorsAreRefused) {
  PlatformBench b("bench", true, true);
  std::vector<uint32_t> codes;
  b.host.script = [&](HostModel& h) {
    auto ring = [&] {
      h.write(kDoorbell, kCommandLaunchKernel);
      codes.push_back(h.read(kErrorCode));
      h.write(kIrqStatus, kIrqError);
    };
    h.write(kGrid, 64);
    h.write(kBlock, 128);
    h.write(kParamsLo, uint32_t(KmeansLayout::params));
    h.write(kParamsSize, sizeof(AssignParams));
    h.write(kKernel, 2);
    ring();  // kmeans has 2 kernels
    h.write(kKernel, 0);
    h.write(kParamsSize, 16);
    ring();  // fewer bytes than kmeans_assign's parameters
    h.write(kParamsSize, sizeof(AssignParams));
    h.write(kBlock, 2048);
    ring();  // more threads than a CTA may have
    h.write(kBlock, 128);
    h.write(kSharedBytes, 64);
    ring();  // kmeans_assign declares no dynamic shared memory
    h.write(kSharedBytes, 0);
    h.write(kParamsLo, 0);
    ring();  // no memory answers at address 0
    h.write(kDoorbell, kCommandLaunch);
    codes.push_back(h.read(kErrorCode));  // launch entries: none with platform data
    h.write(kIrqStatus, kIrqError);
    h.write(kDoorbell, kCommandEndRun);
    wait_for_the_end(h);
    EXPECT_EQ(h.read(kCommandsDone), 0u);
  };
  sc_core::sc_start();
  EXPECT_EQ(codes, (std::vector<uint32_t>{kBadKernel, kBadParams, kBadShape, kBadShape, kParamsUnreadable, kBadRange}));
  EXPECT_EQ(b.gpu.kernels().size(), 0u);
}

TEST_F(PlatformDataPath, APointerNoMemoryAnswersIsAFaultOfTheProgram) {
  PlatformBench b("bench", true, false);
  b.host.script = [&](HostModel& h) {
    const AssignParams wild{0x1000, KmeansLayout::centroids, KmeansLayout::assignment, 8192, 8};
    std::memcpy(b.ram.at(KmeansLayout::params), &wild, sizeof wild);
    h.write(kGrid, 64);
    h.write(kBlock, 128);
    h.write(kParamsLo, uint32_t(KmeansLayout::params));
    h.write(kParamsSize, sizeof wild);
    h.write(kDoorbell, kCommandLaunchKernel);
    EXPECT_EQ(h.read(kErrorCode), 0u);
    h.write(kDoorbell, kCommandEndRun);
  };
  try {
    sc_core::sc_start();
    FAIL() << "the run ended without the fault";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("kernel kmeans_assign: CTA 0"), std::string::npos) << what;
    EXPECT_NE(what.find("address 0x1000: the platform's memory does not answer there"), std::string::npos) << what;
  }
}

TEST_F(PlatformDataPath, NeedsAHostThatLaunches) {
  LoadedRun run = load_run(kmeans_run(true));
  HostInterfaceOptions self_running;
  EXPECT_THROW(Gpu("gpu", run.gpu, run.workload, std::move(run.policy), self_running), std::invalid_argument);
}

TEST(PlatformDataConfig, NeedsAnExternalMemory) {
  const std::string out = test::temp_dir("platform_data_cli") + "/out";
  test::ProcessResult r = test::run_gpupm_argv({"run", "--gpu", test::source_path("configs/gpu/gtx480.json"),
                                                "--workload", test::cuda_workload("kmeans"), "--set",
                                                "gpu.memory.data=platform", "--out", out, "--quiet"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("memory.data"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("system \"external\""), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpupm
