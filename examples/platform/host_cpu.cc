#include "host_cpu.h"

#include "kernel_level_policy.h"

#include <gpupm/host/command_processor.h>  // host_reg: the register map

#include <cstring>
#include <sstream>

using namespace gpupm::host_reg;

HostCpu::HostCpu(sc_core::sc_module_name name, uint32_t sm_level) : sc_module(name), sm_level_(sm_level) {
  payload_.set_data_ptr(reinterpret_cast<unsigned char*>(&word_));  // every access is one 32-bit word
  payload_.set_data_length(sizeof word_);
  payload_.set_streaming_width(sizeof word_);
  SC_HAS_PROCESS(HostCpu);
  SC_THREAD(run);
  SC_METHOD(count_irq);
  sensitive << irq.pos();
  dont_initialize();
}

void HostCpu::run() {
  if (read(kId) != kIdValue) SC_REPORT_ERROR("example/host", "ID: not a gpupm host interface");
  write(kPolicyCsr + kernel_level_csr::kLevel, sm_level_);
  write(kIrqEnable, kIrqLaunchDone | kIrqRunDone);
  readings_.launch_entries = read(kLaunchEntries);
  readings_.launches_by_interrupt = true;
  for (uint32_t entry = 0; entry < readings_.launch_entries; ++entry) launch_and_wait_for_irq(entry);
  end_run_and_poll();
  read_back();
}

// One entry per descriptor; the interrupt says it is done, and is cleared (RW1C).
void HostCpu::launch_and_wait_for_irq(uint32_t entry) {
  write(kLaunchFirst, entry);
  write(kLaunchCount, 1);
  write(kDoorbell, kCommandLaunch);
  sc_core::wait(irq.posedge_event());
  readings_.launches_by_interrupt &= (read(kIrqStatus) & kIrqLaunchDone) != 0;
  write(kIrqStatus, kIrqLaunchDone);
}

// END_RUN, then STATUS polled every microsecond (the RUN_DONE interrupt rises too).
void HostCpu::end_run_and_poll() {
  write(kDoorbell, kCommandEndRun);
  while (!(read(kStatus) & kStatusRunEnded)) sc_core::wait(1, sc_core::SC_US);
  readings_.run_ended = true;
}

// After the run a latch copies the completion snapshot: the report's totals.
void HostCpu::read_back() {
  readings_.commands_done = read(kCommandsDone);
  write(kCountersLatch, 1);
  readings_.instructions = counter(0);
  readings_.sm_cycles = counter(1);
  readings_.time_fs = counter(3);
  const uint64_t energy_bits = counter(4);
  std::memcpy(&readings_.energy_j, &energy_bits, sizeof energy_bits);
  const uint32_t vf_sm = read(kVfSm);
  readings_.vf_sm_level = vf_sm & 0xFF;
  readings_.vf_sm_khz = read(kVfSmKhz);
  readings_.policy_level = read(kPolicyCsr + kernel_level_csr::kLevel);
  readings_.policy_decisions = read(kPolicyCsr + kernel_level_csr::kDecisions);
}

uint64_t HostCpu::counter(uint32_t index) {
  const uint32_t low = read(kCounters + 8 * index);
  return uint64_t(read(kCounters + 8 * index + 4)) << 32 | low;
}

uint32_t HostCpu::read(uint32_t addr) { return access(tlm::TLM_READ_COMMAND, addr, 0); }
void HostCpu::write(uint32_t addr, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, addr, value); }

// One aligned 32-bit word per access, no byte enables; the delay is waited out at once.
uint32_t HostCpu::access(tlm::tlm_command command, uint32_t addr, uint32_t value) {
  word_ = value;
  payload_.set_command(command);
  payload_.set_address(addr);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  bus->b_transport(payload_, delay);
  if (!payload_.is_response_ok()) {
    std::ostringstream what;
    what << "access to 0x" << std::hex << addr << " refused: " << payload_.get_response_string();
    SC_REPORT_ERROR("example/host", what.str().c_str());
  }
  sc_core::wait(delay);
  return word_;
}
