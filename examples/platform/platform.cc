// A SystemC platform of one's own around an installed gpupm
// (docs/embedding.md#examples): the GPU with its memory external, the
// platform's own DRAM (simple_dram.h) on every mem_out socket, its own host CPU
// (host_cpu.h) on host_in and irq_o, and its own policy (kernel_level_policy.cc)
// chosen by name. It runs the simulation itself, prints what it measured,
// writes OUT_DIR/report.json if given, and exits 0 only if its checks pass
// (1 otherwise; 2 on bad input).
// Usage: platform [OUT_DIR]
#include "host_cpu.h"
#include "simple_dram.h"

#include <gpupm/common/data_dir.h>
#include <gpupm/platform/gpu.h>
#include <gpupm/platform/run_setup.h>
#include <gpupm/report/report_writer.h>

#include <systemc>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

constexpr double kDramLatencyNs = 100.0;
constexpr unsigned kDramBanks = 64;  // 64 lines per 100 ns: about 82 GB/s

gpupm::RunInputs example_inputs() {
  gpupm::RunInputs in;
  in.gpu_file = gpupm::data_file("configs/gpu/gtx480.json");
  in.workload_file = EXAMPLE_WORKLOAD;
  in.policy = "example-kernel-level";  // registered in kernel_level_policy.cc
  in.sets = {"gpu.memory.system=external"};
  return in;
}

gpupm::HostInterfaceOptions host_launches() {
  gpupm::HostInterfaceOptions host;
  host.host_launches = true;
  return host;
}

// The GPU, the platform's DRAM and host, bound together.
struct Platform {
  explicit Platform(gpupm::LoadedRun loaded)
      : run(std::move(loaded)),
        gpu("gpu", run.gpu, run.workload, std::move(run.policy), host_launches()),
        dram("dram", sc_core::sc_time(kDramLatencyNs, sc_core::SC_NS), kDramBanks),
        host("host", top_sm_level()) {
    for (auto& socket : gpu.mem_out()) socket.bind(dram.in);
    host.bus.bind(gpu.host_in);
    host.irq.bind(gpu.irq_o);
  }
  uint32_t top_sm_level() const { return uint32_t(run.gpu.dvfs[gpupm::Domain::Sm].levels.size() - 1); }

  gpupm::LoadedRun run;  // must outlive gpu
  gpupm::Gpu gpu;
  SimpleDram dram;
  HostCpu host;
};

void print(const Platform& p, uint64_t sms_line_reads) {
  const HostReadings& r = p.host.readings();
  std::cout << "launch_entries " << r.launch_entries << "\ncommands_done " << r.commands_done << "\nirq_rises "
            << r.irq_rises << "\ninstructions " << r.instructions << "\nsm_cycles " << r.sm_cycles << "\ntime_fs "
            << r.time_fs << "\nenergy_j " << r.energy_j << "\nvf_sm_level " << r.vf_sm_level << "\nvf_sm_khz "
            << r.vf_sm_khz << "\npolicy_decisions " << r.policy_decisions << "\ndram_reads " << p.dram.reads()
            << "\ndram_writes " << p.dram.writes() << "\ndram_held_back " << p.dram.held_back() << "\nsms_line_reads "
            << sms_line_reads << "\n";
}

// Each check printed; true if all pass.
bool check(const Platform& p, uint64_t sms_line_reads) {
  const HostReadings& r = p.host.readings();
  const gpupm::DomainDvfs& sm = p.run.gpu.dvfs[gpupm::Domain::Sm];
  const uint32_t level = p.top_sm_level();
  bool all = true;
  auto expect = [&all](bool ok, const char* what) {
    std::cout << (ok ? "ok     " : "FAILED ") << what << "\n";
    all &= ok;
  };
  expect(p.gpu.done() && r.run_ended, "the run ended (Gpu::done, STATUS.RUN_ENDED polled)");
  expect(r.launch_entries > 0 && r.commands_done == r.launch_entries && p.gpu.kernels_done() == r.launch_entries,
         "every launch entry launched and done");
  expect(r.launches_by_interrupt && r.irq_rises == r.launch_entries + 1,
         "each launch and the run's end came by the interrupt");
  expect(r.instructions > 0 && r.instructions == p.gpu.finish().sm.insts, "INSTRUCTIONS: the run's total");
  expect(r.sm_cycles > 0 && r.energy_j > 0 && r.time_fs > 0, "SM_CYCLES, ENERGY, TIME_FS not zero");
  expect(r.policy_level == level && r.policy_decisions == r.launch_entries,
         "the policy kept the host's LEVEL and decided at every kernel start");
  expect(r.vf_sm_level == level && r.vf_sm_khz == uint32_t(sm.levels[level].mhz * 1000 + 0.5),
         "VF_SM, VF_SM_KHZ: the level the host chose");
  expect(p.dram.reads() > 0 && p.dram.writes() > 0, "the DRAM served reads and writes");
  expect(p.dram.reads() == sms_line_reads, "the DRAM's reads: every line the SMs requested");
  expect(p.dram.held_back() > 0, "the DRAM's back-pressure held requests back");
  return all;
}

int run_platform(const char* out_dir) {
  Platform p(gpupm::load_run(example_inputs()));
  sc_core::sc_start();  // returns when the run has ended and the host and DRAM are idle
  const gpupm::Json report = gpupm::build_report(p.gpu, p.run.doc);
  const uint64_t sms_line_reads = report.at("memory").at("seen_by_the_sms").at("line_reads").get<uint64_t>();
  if (out_dir) {
    std::filesystem::create_directories(out_dir);
    std::ofstream(std::string(out_dir) + "/report.json") << report.dump(2) << "\n";
  }
  print(p, sms_line_reads);
  return check(p, sms_line_reads) ? 0 : 1;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);  // first: before any sc_time exists
  gpupm::set_data_dir(GPUPM_INSTALLED_DATA_DIR);
  try {
    return run_platform(argc > 1 ? argv[1] : nullptr);
  } catch (const gpupm::InputError& e) {
    std::cerr << "platform: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "platform: " << e.what() << "\n";
    return 1;
  }
}
