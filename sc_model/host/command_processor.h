// The command processor: the GPU's host interface (docs/embedding.md, "Host
// interface"). A host model reads and writes its 32-bit registers through
// host_in: it writes a launch descriptor (which launch entries of the loaded
// workload), rings the doorbell, and polls STATUS or takes irq_out; it reads
// performance counters, the V/F levels, and the policy's registers (a window
// forwarded to csr_out). Commands go to the GWDE as messages
// (protocol/launch_messages.h), which reports each one done.
#pragma once

#include "gpupm/protocol/launch_messages.h"
#include "gpupm/protocol/vf_status.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <cstdint>
#include <functional>
#include <utility>

namespace gpupm {

// How the GPU meets its host (a Gpu constructor argument).
struct HostInterfaceOptions {
  // false: the GPU runs its workload from time 0 by itself (the gpupm program);
  // true: nothing runs until a host launches it through host_in.
  bool host_launches = false;
  double access_latency_ns = 10.0;  // added to the annotated delay of every access (>= 0)
};

// The platform's counters as the host reads them (latched by COUNTERS_LATCH).
struct HostCounters {
  uint64_t warp_instructions = 0;  // issued, summed over the SMs
  uint64_t sm_cycles = 0, mem_cycles = 0;
  uint64_t time_fs = 0;  // simulated time
  double energy_j = 0;   // total, as the report's total energy
};

// Register offsets in host_in's address space (the map is in docs/embedding.md).
namespace host_reg {
constexpr uint32_t kId = 0x000, kStatus = 0x004, kLaunchFirst = 0x008, kLaunchCount = 0x00C, kDoorbell = 0x010,
                   kIrqStatus = 0x014, kIrqEnable = 0x018, kErrorCode = 0x01C, kCommandsDone = 0x020,
                   kLaunchEntries = 0x024, kQueueDepth = 0x028, kCountersLatch = 0x02C;
constexpr uint32_t kVfSm = 0x040, kVfSmKhz = 0x044, kVfMem = 0x048, kVfMemKhz = 0x04C;
// A driver-like launch's descriptor (LAUNCH_KERNEL, with platform data)
constexpr uint32_t kKernelCount = 0x050, kKernel = 0x060, kGrid = 0x064 /* x, y, z */, kBlock = 0x070 /* x, y, z */,
                   kSharedBytes = 0x07C, kParamsLo = 0x080, kParamsHi = 0x084, kParamsSize = 0x088;
constexpr uint32_t kMaxParamsSize = 4096;  // PTX's limit on a kernel's parameters
constexpr uint32_t kCounters = 0x100;      // 5 64-bit counters, low word first: instructions, SM cycles,
                                           // memory cycles, time (fs), energy (IEEE binary64 joules)
constexpr uint32_t kCounterWords = 10;
constexpr uint32_t kPolicyCsr = 0x1000, kPolicyCsrSize = 0x1000;  // the policy's registers at offset - 0x1000

constexpr uint32_t kIdValue = 0x67700002;  // "gp", interface version 2 (1 had no LAUNCH_KERNEL)
constexpr uint32_t kQueueDepthValue = 16;  // commands queued or running
// DOORBELL values
constexpr uint32_t kCommandLaunch = 1, kCommandEndRun = 2, kCommandLaunchKernel = 3;
// STATUS bits
constexpr uint32_t kStatusBusy = 1u << 0, kStatusRunEnded = 1u << 1, kStatusError = 1u << 2,
                   kStatusHostLaunches = 1u << 3, kStatusPlatformData = 1u << 4;
// IRQ_STATUS / IRQ_ENABLE bits
constexpr uint32_t kIrqLaunchDone = 1u << 0, kIrqRunDone = 1u << 1, kIrqError = 1u << 2;
// ERROR_CODE values (a refused doorbell)
enum ErrorCode : uint32_t {
  kNoError = 0,
  kBadCommand = 1,
  kBadRange = 2,
  kQueueFull = 3,
  kNotHostLaunched = 4,
  kRunEnded = 5,
  kNoPlatformData = 6,    // LAUNCH_KERNEL without memory.data "platform"
  kBadKernel = 7,         // KERNEL not below KERNEL_COUNT
  kBadShape = 8,          // GRID, BLOCK or SHARED_BYTES: not a launch the SMs can run
  kBadParams = 9,         // PARAMS_SIZE below the kernel's parameter bytes, or above kMaxParamsSize
  kParamsUnreadable = 10  // the platform's memory did not answer for the parameter block
};
}  // namespace host_reg

class CommandProcessor : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket_optional<CommandProcessor> host_in;  // the host's register accesses
  tlm_utils::simple_initiator_socket<CommandProcessor> gwde_out;       // GWDE launch_in
  tlm_utils::simple_target_socket<CommandProcessor> gwde_in;           // GWDE launch_done_out
  tlm_utils::simple_initiator_socket<CommandProcessor> csr_out;        // the policy's registers
  sc_core::sc_out<bool> irq_out;                                       // high while IRQ_STATUS & IRQ_ENABLE is not zero

  // `launch_entries`: how many entries a launch descriptor may name (launch_entries() of the workload).
  CommandProcessor(sc_core::sc_module_name name, const HostInterfaceOptions& options, uint32_t launch_entries,
                   const ClockStatus& clocks);

  // The platform's counters now (set by the platform; read at COUNTERS_LATCH).
  std::function<HostCounters()> read_counters;

  // Checks a LAUNCH_KERNEL descriptor (request without params) and reads its
  // parameter block into request.params: kNoError if it may run.
  using PrepareKernelLaunch =
      std::function<host_reg::ErrorCode(KernelLaunchRequest& request, uint64_t params_addr, uint32_t params_size)>;
  // Platform data: LAUNCH_KERNEL may name `kernels` kernels (KERNEL_COUNT),
  // each checked and its parameters read by `prepare`. Before the run starts.
  void enable_kernel_launches(uint32_t kernels, PrepareKernelLaunch prepare);

 private:
  void host_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void act_at_local_time(sc_core::sc_time& delay);
  unsigned host_transport_dbg(tlm::tlm_generic_payload& gp);
  void gwde_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_response_status read(uint32_t addr, uint32_t& value) const;
  tlm::tlm_response_status write(uint32_t addr, uint32_t value);
  uint32_t status() const;
  uint32_t vf(Domain d) const;
  uint32_t khz(Domain d) const;
  void ring(uint32_t command);
  host_reg::ErrorCode prepare(uint32_t command, LaunchCommandMsg& msg);
  host_reg::ErrorCode refusal(uint32_t command) const;
  void raise(uint32_t irq_bits);
  void update_irq();
  void drive_irq();
  void latch_counters();

  const HostInterfaceOptions options_;
  const sc_core::sc_time latency_;
  const uint32_t launch_entries_;
  const ClockStatus& clocks_;
  uint32_t launch_first_ = 0, launch_count_ = 1;
  uint32_t kernel_count_ = 0;  // with platform data
  PrepareKernelLaunch prepare_kernel_launch_;
  struct KernelDescriptor {  // LAUNCH_KERNEL's registers
    uint32_t kernel = 0, grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, shared_bytes = 0;
    uint32_t params_lo = 0, params_hi = 0, params_size = 0;
  } descriptor_;
  const uint32_t* descriptor_register(uint32_t addr) const;  // null: not one of them
  uint32_t* descriptor_register(uint32_t addr) {
    return const_cast<uint32_t*>(std::as_const(*this).descriptor_register(addr));
  }
  uint32_t irq_status_ = 0, irq_enable_ = 0;
  host_reg::ErrorCode error_ = host_reg::kNoError;
  uint32_t outstanding_ = 0;  // commands sent to the GWDE and not yet done
  uint32_t commands_done_ = 0;
  bool end_queued_ = false, run_ended_ = false;
  std::array<uint32_t, host_reg::kCounterWords> counters_{};
  sc_core::sc_event irq_changed_;  // irq_out has one writer, drive_irq, whichever process changed the causes
};

}  // namespace gpupm
