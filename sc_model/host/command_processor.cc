#include "gpupm/host/command_processor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gpupm {

using namespace host_reg;
using sc_core::sc_time;

namespace {
sc_time latency_of(const HostInterfaceOptions& o) {
  if (!(o.access_latency_ns >= 0) || !std::isfinite(o.access_latency_ns))
    throw std::invalid_argument("host interface: access_latency_ns must be a finite number >= 0, not " +
                                std::to_string(o.access_latency_ns));
  return sc_time(o.access_latency_ns, sc_core::SC_NS);
}

bool in_descriptor(uint32_t addr) { return addr >= kKernel && addr <= kParamsSize; }

bool writable(uint32_t addr) {
  if (in_descriptor(addr)) return true;
  switch (addr) {
    case kLaunchFirst:
    case kLaunchCount:
    case kDoorbell:
    case kIrqStatus:
    case kIrqEnable:
    case kCountersLatch: return true;
    default: return false;
  }
}

// What a debugger may write: the registers that only hold a value (no action on write).
bool plain_storage(uint32_t addr) {
  return addr == kLaunchFirst || addr == kLaunchCount || addr == kIrqEnable || in_descriptor(addr);
}

bool in_policy_window(uint64_t addr) { return addr >= kPolicyCsr && addr < kPolicyCsr + kPolicyCsrSize; }

bool read_only(uint32_t addr) {
  switch (addr) {
    case kId:
    case kStatus:
    case kErrorCode:
    case kCommandsDone:
    case kLaunchEntries:
    case kQueueDepth:
    case kVfSm:
    case kVfSmKhz:
    case kVfMem:
    case kVfMemKhz:
    case kKernelCount: return true;
    default: return addr >= kCounters && addr < kCounters + 4 * kCounterWords;
  }
}
}  // namespace

CommandProcessor::CommandProcessor(sc_core::sc_module_name name, const HostInterfaceOptions& options,
                                   uint32_t launch_entries, const ClockStatus& clocks)
    : sc_module(name),
      host_in("host_in"),
      gwde_out("gwde_out"),
      gwde_in("gwde_in"),
      csr_out("csr_out"),
      irq_out("irq_out"),
      options_(options),
      latency_(latency_of(options)),
      launch_entries_(launch_entries),
      clocks_(clocks) {
  host_in.register_b_transport(this, &CommandProcessor::host_b_transport);
  host_in.register_transport_dbg(this, &CommandProcessor::host_transport_dbg);
  gwde_in.register_b_transport(this, &CommandProcessor::gwde_b_transport);
  SC_HAS_PROCESS(CommandProcessor);
  SC_METHOD(drive_irq);
  sensitive << irq_changed_;
  dont_initialize();
}

// Every access costs access_latency_ns, refused ones too. Registers are one
// aligned 32-bit word; the policy's window is checked by the policy's host.
void CommandProcessor::host_b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  const uint64_t addr = gp.get_address();
  const bool in_window = in_policy_window(addr);
  const bool well_formed = gp.get_data_length() == 4 && !(addr & 3) && !gp.get_byte_enable_ptr();
  if (gp.is_write() && (in_window || (well_formed && addr <= UINT32_MAX && writable(uint32_t(addr)))))
    act_at_local_time(delay);
  delay += latency_;
  if (in_window) {
    gp.set_address(addr - kPolicyCsr);
    csr_out->b_transport(gp, delay);
    gp.set_address(addr);
    return;
  }
  if (!well_formed) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  uint32_t value = 0;
  tlm::tlm_response_status result = tlm::TLM_OK_RESPONSE;
  if (addr > UINT32_MAX) {
    result = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  } else if (gp.is_read()) {
    result = read(uint32_t(addr), value);
    if (result == tlm::TLM_OK_RESPONSE) std::memcpy(gp.get_data_ptr(), &value, 4);
  } else if (gp.is_write()) {
    std::memcpy(&value, gp.get_data_ptr(), 4);
    result = write(uint32_t(addr), value);
  }
  gp.set_response_status(result);
}

// Temporal decoupling: a write acts at the initiator's local time (a register
// sync on write, as VCML's), so a launch written at t+d starts at t+d. Reads
// answer with the state at the call: a decoupled host polling STATUS syncs first.
void CommandProcessor::act_at_local_time(sc_time& delay) {
  if (delay == sc_core::SC_ZERO_TIME) return;
  sc_core::wait(delay);  // allowed in b_transport: LT initiators call it from a thread
  delay = sc_core::SC_ZERO_TIME;
}

// Debug access (a register viewer, a debugger): no time, no latency, no side
// effects. Reads of whole aligned words; writes to plain_storage() registers
// only: a transfer stops at the first
// word it cannot do, and the count of bytes done is returned, as TLM-2.0 says.
unsigned CommandProcessor::host_transport_dbg(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  const unsigned length = gp.get_data_length();
  if (in_policy_window(addr)) {
    gp.set_address(addr - kPolicyCsr);
    const unsigned done = csr_out->transport_dbg(gp);
    gp.set_address(addr);
    return done;
  }
  if ((addr & 3) || addr + length > UINT32_MAX || gp.get_byte_enable_ptr()) return 0;
  unsigned done = 0;
  for (; done + 4 <= length; done += 4) {
    const uint32_t reg = uint32_t(addr) + done;
    uint32_t value = 0;
    if (gp.is_read()) {
      if (read(reg, value) != tlm::TLM_OK_RESPONSE) break;
      std::memcpy(gp.get_data_ptr() + done, &value, 4);
    } else if (gp.is_write()) {
      if (!plain_storage(reg)) break;
      std::memcpy(&value, gp.get_data_ptr() + done, 4);
      write(reg, value);
    } else {
      break;
    }
  }
  return done;
}

void CommandProcessor::enable_kernel_launches(uint32_t kernels, PrepareKernelLaunch prepare) {
  kernel_count_ = kernels;
  prepare_kernel_launch_ = std::move(prepare);
}

const uint32_t* CommandProcessor::descriptor_register(uint32_t addr) const {
  const KernelDescriptor& d = descriptor_;
  switch (addr) {
    case kKernel: return &d.kernel;
    case kGrid: return &d.grid[0];
    case kGrid + 4: return &d.grid[1];
    case kGrid + 8: return &d.grid[2];
    case kBlock: return &d.block[0];
    case kBlock + 4: return &d.block[1];
    case kBlock + 8: return &d.block[2];
    case kSharedBytes: return &d.shared_bytes;
    case kParamsLo: return &d.params_lo;
    case kParamsHi: return &d.params_hi;
    case kParamsSize: return &d.params_size;
    default: return nullptr;
  }
}

tlm::tlm_response_status CommandProcessor::read(uint32_t addr, uint32_t& value) const {
  if (const uint32_t* reg = descriptor_register(addr)) {
    value = *reg;
    return tlm::TLM_OK_RESPONSE;
  }
  switch (addr) {
    case kId: value = kIdValue; break;
    case kStatus: value = status(); break;
    case kLaunchFirst: value = launch_first_; break;
    case kLaunchCount: value = launch_count_; break;
    case kIrqStatus: value = irq_status_; break;
    case kIrqEnable: value = irq_enable_; break;
    case kErrorCode: value = error_; break;
    case kCommandsDone: value = commands_done_; break;
    case kLaunchEntries: value = launch_entries_; break;
    case kQueueDepth: value = kQueueDepthValue; break;
    case kVfSm: value = vf(Domain::Sm); break;
    case kVfSmKhz: value = khz(Domain::Sm); break;
    case kVfMem: value = vf(Domain::Mem); break;
    case kVfMemKhz: value = khz(Domain::Mem); break;
    case kKernelCount: value = kernel_count_; break;
    case kDoorbell:
    case kCountersLatch: return tlm::TLM_COMMAND_ERROR_RESPONSE;  // write-only
    default:
      if (addr < kCounters || addr >= kCounters + 4 * kCounterWords) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
      value = counters_[(addr - kCounters) / 4];
  }
  return tlm::TLM_OK_RESPONSE;
}

tlm::tlm_response_status CommandProcessor::write(uint32_t addr, uint32_t value) {
  if (uint32_t* reg = descriptor_register(addr)) {
    *reg = value;
    return tlm::TLM_OK_RESPONSE;
  }
  switch (addr) {
    case kLaunchFirst: launch_first_ = value; break;
    case kLaunchCount: launch_count_ = value; break;
    case kDoorbell: ring(value); break;
    case kIrqStatus:  // write 1 to clear; clearing ERROR clears ERROR_CODE
      irq_status_ &= ~value;
      if (value & kIrqError) error_ = kNoError;
      update_irq();
      break;
    case kIrqEnable:
      irq_enable_ = value & (kIrqLaunchDone | kIrqRunDone | kIrqError);
      update_irq();
      break;
    case kCountersLatch:
      if (value & 1) latch_counters();
      break;
    default: return read_only(addr) ? tlm::TLM_COMMAND_ERROR_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
  }
  return tlm::TLM_OK_RESPONSE;
}

uint32_t CommandProcessor::status() const {
  return (outstanding_ ? kStatusBusy : 0) | (run_ended_ ? kStatusRunEnded : 0) | (error_ ? kStatusError : 0) |
         (options_.host_launches ? kStatusHostLaunches : 0) | (prepare_kernel_launch_ ? kStatusPlatformData : 0) |
         (outstanding_ << 8);
}

uint32_t CommandProcessor::vf(Domain d) const {
  return (clocks_.level(d) & 0xFF) | (clocks_.in_transition(d) ? 1u << 8 : 0);
}

uint32_t CommandProcessor::khz(Domain d) const { return uint32_t(std::llround(clocks_.mhz(d) * 1000.0)); }

void CommandProcessor::ring(uint32_t command) {
  LaunchCommandMsg msg;
  const ErrorCode why = prepare(command, msg);
  if (why != kNoError) {
    error_ = why;
    raise(kIrqError);
    return;
  }
  if (send(gwde_out, msg) != tlm::TLM_OK_RESPONSE)
    SC_REPORT_ERROR("gpupm/host_interface", "the GWDE refused a launch command the command processor had checked");
  ++outstanding_;
  if (msg.end_run) end_queued_ = true;
}

// The command the doorbell asks for, or why it is refused.
ErrorCode CommandProcessor::prepare(uint32_t command, LaunchCommandMsg& msg) {
  if (const ErrorCode why = refusal(command); why != kNoError) return why;
  msg.end_run = command == kCommandEndRun;
  if (command == kCommandLaunch) {
    msg.first = launch_first_;
    msg.count = launch_count_;
  }
  if (command != kCommandLaunchKernel) return kNoError;
  const KernelDescriptor& d = descriptor_;
  msg.kernel_launch = true;
  KernelLaunchRequest& r = msg.request;
  r.kernel = d.kernel;
  std::copy(d.grid, d.grid + 3, r.grid);
  std::copy(d.block, d.block + 3, r.block);
  r.shared_bytes = d.shared_bytes;
  return prepare_kernel_launch_(r, uint64_t(d.params_hi) << 32 | d.params_lo, d.params_size);
}

ErrorCode CommandProcessor::refusal(uint32_t command) const {
  if (command != kCommandLaunch && command != kCommandEndRun && command != kCommandLaunchKernel) return kBadCommand;
  if (!options_.host_launches) return kNotHostLaunched;
  if (end_queued_) return kRunEnded;
  if (outstanding_ >= kQueueDepthValue) return kQueueFull;
  if (command == kCommandLaunch && (launch_count_ == 0 || uint64_t(launch_first_) + launch_count_ > launch_entries_))
    return kBadRange;
  if (command == kCommandLaunchKernel && !prepare_kernel_launch_) return kNoPlatformData;
  return kNoError;
}

void CommandProcessor::gwde_b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
  auto* done = gp.get_extension<LaunchCommandDoneMsg>();
  if (!done || outstanding_ == 0) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  --outstanding_;
  if (done->end_run) {
    run_ended_ = true;
    raise(kIrqRunDone);
  } else {
    ++commands_done_;
    raise(kIrqLaunchDone);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void CommandProcessor::raise(uint32_t irq_bits) {
  irq_status_ |= irq_bits;
  update_irq();
}

void CommandProcessor::update_irq() { irq_changed_.notify(); }

void CommandProcessor::drive_irq() { irq_out.write((irq_status_ & irq_enable_) != 0); }

void CommandProcessor::latch_counters() {
  const HostCounters c = read_counters ? read_counters() : HostCounters{};
  uint64_t energy_bits = 0;
  std::memcpy(&energy_bits, &c.energy_j, 8);
  const uint64_t values[] = {c.warp_instructions, c.sm_cycles, c.mem_cycles, c.time_fs, energy_bits};
  for (size_t i = 0; i < 5; ++i) {
    counters_[2 * i] = uint32_t(values[i]);
    counters_[2 * i + 1] = uint32_t(values[i] >> 32);
  }
}

}  // namespace gpupm
