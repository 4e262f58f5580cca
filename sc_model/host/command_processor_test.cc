// CommandProcessor against a fake GWDE (records launch commands, completes
// them when the test says), a fake policy register file and fixed V/F status.
// A test host drives host_in with b_transport. Each TEST elaborates one design.
#include "gpupm/host/command_processor.h"

#include "support/sc_bench.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

namespace gpupm {
namespace {

using namespace host_reg;
using sc_core::SC_NS;
using sc_core::sc_time;

struct FakeClocks : ClockStatus {
  uint32_t levels[kDomains] = {2, 1};
  double mhz(Domain d) const override { return d == Domain::Sm ? 700.5 : 924.0; }
  double nominal_volts(Domain) const override { return 1.0; }
  uint32_t level(Domain d) const override { return levels[size_t(d)]; }
  bool in_transition(Domain d) const override { return d == Domain::Mem; }
};

struct CpFakeGwde : sc_core::sc_module {
  tlm_utils::simple_target_socket<CpFakeGwde> launch_in{"launch_in"};
  tlm_utils::simple_initiator_socket<CpFakeGwde> done_out{"done_out"};
  std::vector<LaunchCommandMsg> received;
  std::vector<sc_time> received_at;

  explicit CpFakeGwde(sc_core::sc_module_name name) : sc_module(name) {
    launch_in.register_b_transport(this, &CpFakeGwde::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
    received.push_back(*gp.get_extension<LaunchCommandMsg>());
    received_at.push_back(sc_core::sc_time_stamp());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void complete(bool end_run) {
    LaunchCommandDoneMsg m;
    m.end_run = end_run;
    EXPECT_EQ(send(done_out, m), tlm::TLM_OK_RESPONSE);
  }
};

// One register, 0x10: what the policy's host would answer; debug reads of it too.
struct FakePolicyCsr : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakePolicyCsr> csr_in{"csr_in"};
  uint32_t reg = 0xC0FFEE;
  sc_time written_at = sc_core::SC_ZERO_TIME;
  explicit FakePolicyCsr(sc_core::sc_module_name name) : sc_module(name) {
    csr_in.register_b_transport(this, &FakePolicyCsr::b_transport);
    csr_in.register_transport_dbg(this, &FakePolicyCsr::transport_dbg);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
    if (gp.get_address() != 0x10) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (gp.is_read()) std::memcpy(gp.get_data_ptr(), &reg, 4);
    if (gp.is_write()) {
      std::memcpy(&reg, gp.get_data_ptr(), 4);
      written_at = sc_core::sc_time_stamp();
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    if (gp.get_address() != 0x10 || !gp.is_read() || gp.get_data_length() < 4) return 0;
    std::memcpy(gp.get_data_ptr(), &reg, 4);
    return 4;
  }
};

struct Access {
  tlm::tlm_response_status status;
  uint32_t value;
  sc_time delay;
};

struct CommandProcessorBench : test::ScBench {
  tlm_utils::simple_initiator_socket<CommandProcessorBench> host_out{"host_out"};
  sc_core::sc_signal<bool> irq{"irq"};
  FakeClocks clocks;
  CpFakeGwde gwde{"gwde"};
  FakePolicyCsr policy{"policy"};
  CommandProcessor cp;

  CommandProcessorBench(sc_core::sc_module_name name, const HostInterfaceOptions& o, uint32_t entries)
      : ScBench(name), cp("cp", o, entries, clocks) {
    host_out.bind(cp.host_in);
    cp.irq_out.bind(irq);
    cp.gwde_out.bind(gwde.launch_in);
    gwde.done_out.bind(cp.gwde_in);
    cp.csr_out.bind(policy.csr_in);
  }

  Access access(tlm::tlm_command cmd, uint64_t addr, uint32_t value = 0, unsigned length = 4,
                sc_time delay = sc_core::SC_ZERO_TIME) {
    unsigned char data[8] = {};
    std::memcpy(data, &value, 4);
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(data);
    gp.set_data_length(length);
    gp.set_streaming_width(length);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    host_out->b_transport(gp, delay);
    std::memcpy(&value, data, 4);
    return {gp.get_response_status(), value, delay};
  }
  // A debug access of `words` 32-bit words from `addr`; returns the bytes done.
  unsigned debug(tlm::tlm_command cmd, uint64_t addr, std::vector<uint32_t>& words) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(words.data()));
    gp.set_data_length(unsigned(4 * words.size()));
    return host_out->transport_dbg(gp);
  }
  uint32_t rd(uint32_t addr) {
    Access a = access(tlm::TLM_READ_COMMAND, addr);
    EXPECT_EQ(a.status, tlm::TLM_OK_RESPONSE) << std::hex << addr;
    return a.value;
  }
  void wr(uint32_t addr, uint32_t value) {
    EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, addr, value).status, tlm::TLM_OK_RESPONSE) << std::hex << addr;
  }
};

HostInterfaceOptions host_launched() {
  HostInterfaceOptions o;
  o.host_launches = true;
  o.access_latency_ns = 7.0;
  return o;
}

class CommandProcessorTest : public test::ScTest {};

TEST_F(CommandProcessorTest, ResetValuesAndExactAccessLatency) {
  CommandProcessorBench b("bench", host_launched(), 5);
  b.body = [&] {
    EXPECT_EQ(b.rd(kId), kIdValue);
    EXPECT_EQ(b.rd(kStatus), kStatusHostLaunches);
    EXPECT_EQ(b.rd(kLaunchFirst), 0u);
    EXPECT_EQ(b.rd(kLaunchCount), 1u);
    EXPECT_EQ(b.rd(kIrqStatus), 0u);
    EXPECT_EQ(b.rd(kIrqEnable), 0u);
    EXPECT_EQ(b.rd(kErrorCode), 0u);
    EXPECT_EQ(b.rd(kCommandsDone), 0u);
    EXPECT_EQ(b.rd(kLaunchEntries), 5u);
    EXPECT_EQ(b.rd(kQueueDepth), kQueueDepthValue);
    for (uint32_t w = 0; w < kCounterWords; ++w) EXPECT_EQ(b.rd(kCounters + 4 * w), 0u);  // nothing latched yet
    // The annotation grows by exactly the latency, whatever came in, and time does not move.
    for (double in_ns : {0.0, 3.0, 1000.0}) {
      Access a = b.access(tlm::TLM_READ_COMMAND, kStatus, 0, 4, sc_time(in_ns, SC_NS));
      EXPECT_EQ(a.delay, sc_time(in_ns + 7.0, SC_NS));
      Access bad = b.access(tlm::TLM_WRITE_COMMAND, kId, 0, 4, sc_time(in_ns, SC_NS));  // refused ones too
      EXPECT_EQ(bad.delay, sc_time(in_ns + 7.0, SC_NS));
      Access window = b.access(tlm::TLM_READ_COMMAND, kPolicyCsr + 0x10, 0, 4, sc_time(in_ns, SC_NS));
      EXPECT_EQ(window.delay, sc_time(in_ns + 7.0, SC_NS));
    }
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
  };
  sc_core::sc_start();
  EXPECT_FALSE(b.irq.read());
}

TEST_F(CommandProcessorTest, BadAccessesGetTlmErrorsAndChangeNothing) {
  CommandProcessorBench b("bench", host_launched(), 5);
  b.body = [&] {
    using tlm::TLM_READ_COMMAND;
    using tlm::TLM_WRITE_COMMAND;
    for (uint64_t unmapped : {0x030ull, 0x0FCull, 0x128ull, 0x0FFCull, 0x2000ull, 0x100000000ull}) {
      EXPECT_EQ(b.access(TLM_READ_COMMAND, unmapped).status, tlm::TLM_ADDRESS_ERROR_RESPONSE) << unmapped;
      EXPECT_EQ(b.access(TLM_WRITE_COMMAND, unmapped, 1).status, tlm::TLM_ADDRESS_ERROR_RESPONSE) << unmapped;
    }
    EXPECT_EQ(b.access(TLM_READ_COMMAND, kId, 0, 2).status, tlm::TLM_BURST_ERROR_RESPONSE);          // narrow
    EXPECT_EQ(b.access(TLM_READ_COMMAND, kCounters, 0, 8).status, tlm::TLM_BURST_ERROR_RESPONSE);    // wide
    EXPECT_EQ(b.access(TLM_WRITE_COMMAND, kDoorbell + 2, 1).status, tlm::TLM_BURST_ERROR_RESPONSE);  // unaligned
    for (uint32_t ro : {kId, kStatus, kErrorCode, kCommandsDone, kLaunchEntries, kQueueDepth, kVfSm, kVfMemKhz,
                        kCounters, kCounters + 4 * (kCounterWords - 1)})
      EXPECT_EQ(b.access(TLM_WRITE_COMMAND, ro, 1).status, tlm::TLM_COMMAND_ERROR_RESPONSE) << std::hex << ro;
    for (uint32_t wo : {kDoorbell, kCountersLatch})
      EXPECT_EQ(b.access(TLM_READ_COMMAND, wo).status, tlm::TLM_COMMAND_ERROR_RESPONSE) << std::hex << wo;
    EXPECT_EQ(b.access(TLM_READ_COMMAND, kPolicyCsr + 0x14).status,
              tlm::TLM_ADDRESS_ERROR_RESPONSE);  // the policy's answer
    EXPECT_EQ(b.rd(kId), kIdValue);
    EXPECT_EQ(b.rd(kStatus), kStatusHostLaunches);
    EXPECT_EQ(b.rd(kIrqStatus), 0u);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.gwde.received.empty());
}

TEST_F(CommandProcessorTest, LaunchCommandsReachTheGwdeAndCompletionRaisesTheInterrupt) {
  CommandProcessorBench b("bench", host_launched(), 5);
  b.body = [&] {
    b.wr(kIrqEnable, 0xFF);
    EXPECT_EQ(b.rd(kIrqEnable), kIrqLaunchDone | kIrqRunDone | kIrqError);
    b.wr(kLaunchFirst, 2);
    b.wr(kLaunchCount, 3);
    b.wr(kDoorbell, kCommandLaunch);
    b.wr(kDoorbell, kCommandEndRun);
    ASSERT_EQ(b.gwde.received.size(), 2u);
    EXPECT_EQ(b.gwde.received[0].first, 2u);
    EXPECT_EQ(b.gwde.received[0].count, 3u);
    EXPECT_FALSE(b.gwde.received[0].end_run);
    EXPECT_TRUE(b.gwde.received[1].end_run);
    EXPECT_EQ(b.rd(kStatus), kStatusHostLaunches | kStatusBusy | (2u << 8));

    b.at_ns(100);
    b.gwde.complete(false);
    EXPECT_EQ(b.rd(kIrqStatus), kIrqLaunchDone);
    EXPECT_EQ(b.rd(kCommandsDone), 1u);
    sc_core::wait(sc_core::SC_ZERO_TIME);  // the signal's update
    EXPECT_TRUE(b.irq.read());
    b.wr(kIrqStatus, kIrqLaunchDone);  // write 1 to clear
    EXPECT_EQ(b.rd(kIrqStatus), 0u);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    EXPECT_FALSE(b.irq.read());

    b.at_ns(200);
    b.gwde.complete(true);
    EXPECT_EQ(b.rd(kStatus), kStatusHostLaunches | kStatusRunEnded);
    EXPECT_EQ(b.rd(kIrqStatus), kIrqRunDone);
    EXPECT_EQ(b.rd(kCommandsDone), 1u);  // the end of the run is not a launch
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.irq.read());
}

TEST_F(CommandProcessorTest, AMaskedCauseRaisesNoInterrupt) {
  CommandProcessorBench b("bench", host_launched(), 5);
  b.body = [&] {
    b.wr(kIrqEnable, kIrqRunDone);
    b.wr(kDoorbell, kCommandLaunch);
    b.gwde.complete(false);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(b.rd(kIrqStatus), kIrqLaunchDone);  // pending, but masked
    EXPECT_FALSE(b.irq.read());
    b.wr(kIrqEnable, kIrqLaunchDone);  // unmasking a pending cause raises the line
    sc_core::wait(sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(b.irq.read());
  };
  sc_core::sc_start();
}

// Each refusal: nothing reaches the GWDE, ERROR_CODE says why, the ERROR cause
// is raised; clearing the cause clears the code.
TEST_F(CommandProcessorTest, RefusedDoorbellsSayWhy) {
  CommandProcessorBench b("bench", host_launched(), 5);
  b.body = [&] {
    b.wr(kIrqEnable, kIrqError);
    auto refused = [&](uint32_t command, uint32_t code) {
      const size_t sent = b.gwde.received.size();
      b.wr(kDoorbell, command);
      EXPECT_EQ(b.gwde.received.size(), sent);
      EXPECT_EQ(b.rd(kErrorCode), code);
      EXPECT_TRUE(b.rd(kStatus) & kStatusError);
      EXPECT_TRUE(b.rd(kIrqStatus) & kIrqError);
      b.wr(kIrqStatus, kIrqError);
      EXPECT_EQ(b.rd(kErrorCode), uint32_t(kNoError));
    };
    refused(7, kBadCommand);
    refused(kCommandLaunchKernel, kNoPlatformData);  // no memory.data "platform"
    b.wr(kLaunchFirst, 4);
    b.wr(kLaunchCount, 2);  // entries 4 and 5 of 5
    refused(kCommandLaunch, kBadRange);
    b.wr(kLaunchCount, 0);
    refused(kCommandLaunch, kBadRange);
    b.wr(kLaunchFirst, 0xFFFFFFFF);
    b.wr(kLaunchCount, 0xFFFFFFFF);  // no wrap-around
    refused(kCommandLaunch, kBadRange);
    b.wr(kLaunchFirst, 4);
    b.wr(kLaunchCount, 1);
    for (uint32_t i = 0; i < kQueueDepthValue; ++i) b.wr(kDoorbell, kCommandLaunch);
    refused(kCommandLaunch, kQueueFull);
    b.gwde.complete(false);
    b.wr(kDoorbell, kCommandEndRun);
    refused(kCommandLaunch, kRunEnded);
    refused(kCommandEndRun, kRunEnded);
  };
  sc_core::sc_start();
  EXPECT_EQ(b.gwde.received.size(), kQueueDepthValue + 1);
}

TEST_F(CommandProcessorTest, AKernelLaunchDescriptorReachesTheGwdeWithItsParameters) {
  CommandProcessorBench b("bench", host_launched(), 0);
  std::vector<uint64_t> asked;  // parameter block addresses the platform was asked to read
  b.cp.enable_kernel_launches(2, [&](KernelLaunchRequest& r, uint64_t params, uint32_t size) {
    asked.push_back(params);
    if (r.block[0] > 1024) return kBadShape;
    if (size != 8) return kBadParams;
    r.params.assign(8, uint8_t(params));
    return kNoError;
  });
  b.body = [&] {
    EXPECT_EQ(b.rd(kKernelCount), 2u);
    EXPECT_TRUE(b.rd(kStatus) & kStatusPlatformData);
    EXPECT_EQ(b.rd(kGrid + 4), 1u);  // reset: a 1 x 1 x 1 grid and block
    EXPECT_EQ(b.rd(kBlock + 8), 1u);
    b.wr(kKernel, 1);
    b.wr(kGrid, 30);
    b.wr(kGrid + 4, 2);
    b.wr(kBlock, 256);
    b.wr(kSharedBytes, 512);
    b.wr(kParamsLo, 0x80001000);
    b.wr(kParamsHi, 0x1);
    b.wr(kParamsSize, 8);
    EXPECT_EQ(b.rd(kParamsHi), 1u);
    b.wr(kDoorbell, kCommandLaunchKernel);
    EXPECT_EQ(b.rd(kErrorCode), uint32_t(kNoError));
    b.wr(kBlock, 2048);
    b.wr(kDoorbell, kCommandLaunchKernel);
    EXPECT_EQ(b.rd(kErrorCode), uint32_t(kBadShape));
    b.wr(kIrqStatus, kIrqError);
    b.wr(kBlock, 32);
    b.wr(kParamsSize, 4);
    b.wr(kDoorbell, kCommandLaunchKernel);
    EXPECT_EQ(b.rd(kErrorCode), uint32_t(kBadParams));
    std::vector<uint32_t> words = {0, 7};  // a debugger may set the descriptor too
    EXPECT_EQ(b.debug(tlm::TLM_WRITE_COMMAND, kKernel, words), 8u);
    EXPECT_EQ(b.rd(kGrid), 7u);
    EXPECT_EQ(b.access(tlm::TLM_WRITE_COMMAND, kKernelCount, 3).status, tlm::TLM_COMMAND_ERROR_RESPONSE);
    b.wr(kDoorbell, kCommandLaunch);  // no launch entries with platform data
    EXPECT_EQ(b.rd(kErrorCode), uint32_t(kBadRange));
  };
  sc_core::sc_start();
  ASSERT_EQ(b.gwde.received.size(), 1u);
  const LaunchCommandMsg& m = b.gwde.received[0];
  EXPECT_TRUE(m.kernel_launch);
  EXPECT_FALSE(m.end_run);
  EXPECT_EQ(m.request.kernel, 1u);
  EXPECT_EQ(m.request.grid[0], 30u);
  EXPECT_EQ(m.request.grid[1], 2u);
  EXPECT_EQ(m.request.grid[2], 1u);
  EXPECT_EQ(m.request.block[0], 256u);
  EXPECT_EQ(m.request.shared_bytes, 512u);
  EXPECT_EQ(m.request.params, std::vector<uint8_t>(8, uint8_t(0x80001000)));
  EXPECT_EQ(asked.size(), 3u);
  EXPECT_EQ(asked[0], 0x180001000ull);
}

TEST_F(CommandProcessorTest, WithoutHostLaunchesTheDoorbellIsRefused) {
  HostInterfaceOptions o;  // the GPU runs its workload itself
  CommandProcessorBench b("bench", o, 5);
  b.body = [&] {
    EXPECT_EQ(b.rd(kStatus), 0u);
    b.wr(kDoorbell, kCommandLaunch);
    EXPECT_EQ(b.rd(kErrorCode), uint32_t(kNotHostLaunched));
    EXPECT_EQ(b.access(tlm::TLM_READ_COMMAND, kStatus).delay, sc_time(10, SC_NS));  // the default latency
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.gwde.received.empty());
}

// Temporal decoupling: a write acts at the initiator's local time (the
// annotation is waited off first), a read answers at the call.
TEST_F(CommandProcessorTest, AWriteActsAtTheInitiatorsLocalTime) {
  CommandProcessorBench b("bench", host_launched(), 5);
  b.body = [&] {
    const Access read = b.access(tlm::TLM_READ_COMMAND, kStatus, 0, 4, sc_time(500, SC_NS));
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
    EXPECT_EQ(read.delay, sc_time(507, SC_NS));
    const Access doorbell = b.access(tlm::TLM_WRITE_COMMAND, kDoorbell, kCommandLaunch, 4, sc_time(1000, SC_NS));
    EXPECT_EQ(doorbell.status, tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(b.gwde.received_at.size(), 1u);
    EXPECT_EQ(b.gwde.received_at[0], sc_time(1000, SC_NS));  // the launch starts at the host's local time
    EXPECT_EQ(sc_core::sc_time_stamp() + doorbell.delay, sc_time(1007, SC_NS));       // local time after: + latency
    b.access(tlm::TLM_WRITE_COMMAND, kPolicyCsr + 0x10, 42, 4, sc_time(300, SC_NS));  // the window's writes too
    EXPECT_EQ(b.policy.written_at, sc_time(1300, SC_NS));
    const Access refused = b.access(tlm::TLM_WRITE_COMMAND, kId, 0, 4, sc_time(200, SC_NS));
    EXPECT_EQ(refused.status, tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(1300, SC_NS));  // a refused write acts on nothing, waits for nothing
    EXPECT_EQ(refused.delay, sc_time(207, SC_NS));
  };
  sc_core::sc_start();
}

// Debug transport: no time, no latency, no action. Reads of whole words stop at
// the first word not readable; writes reach only the plain storage registers.
TEST_F(CommandProcessorTest, DebugAccessTakesNoTimeAndActsOnNothing) {
  CommandProcessorBench b("bench", host_launched(), 5);
  b.body = [&] {
    using tlm::TLM_READ_COMMAND;
    using tlm::TLM_WRITE_COMMAND;
    b.wr(kLaunchFirst, 3);
    std::vector<uint32_t> four(4);
    EXPECT_EQ(b.debug(TLM_READ_COMMAND, kId, four), 16u);
    EXPECT_EQ(four, (std::vector<uint32_t>{kIdValue, kStatusHostLaunches, 3, 1}));
    std::vector<uint32_t> two(2);
    EXPECT_EQ(b.debug(TLM_READ_COMMAND, kLaunchCount, two), 4u);  // DOORBELL is write-only
    EXPECT_EQ(b.debug(TLM_READ_COMMAND, kId + 2, two), 0u);       // unaligned
    two = {1, 2};
    EXPECT_EQ(b.debug(TLM_WRITE_COMMAND, kLaunchFirst, two), 8u);
    EXPECT_EQ(b.rd(kLaunchFirst), 1u);
    EXPECT_EQ(b.rd(kLaunchCount), 2u);
    for (uint32_t action : {kDoorbell, kIrqStatus, kCountersLatch, kId}) {
      std::vector<uint32_t> one{kCommandLaunch};
      EXPECT_EQ(b.debug(TLM_WRITE_COMMAND, action, one), 0u) << std::hex << action;
    }
    std::vector<uint32_t> one(1);
    EXPECT_EQ(b.debug(TLM_READ_COMMAND, kPolicyCsr + 0x10, one), 4u);  // the window: the policy's own answer
    EXPECT_EQ(one[0], 0xC0FFEEu);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.gwde.received.empty());
}

TEST_F(CommandProcessorTest, CountersVfLevelsAndThePolicyWindow) {
  CommandProcessorBench b("bench", host_launched(), 5);
  HostCounters c;
  c.warp_instructions = 0x1'0000'0002ull;
  c.sm_cycles = 12345;
  c.mem_cycles = 678;
  c.time_fs = 0xAB'CDEF'0123ull;
  c.energy_j = 1.25e-3;
  int reads = 0;
  b.cp.read_counters = [&] {
    ++reads;
    return c;
  };
  b.body = [&] {
    EXPECT_EQ(b.rd(kCounters), 0u);
    EXPECT_EQ(reads, 0);  // reading does not latch
    b.wr(kCountersLatch, 1);
    EXPECT_EQ(reads, 1);
    auto counter = [&](uint32_t i) {
      return uint64_t(b.rd(kCounters + 8 * i)) | uint64_t(b.rd(kCounters + 8 * i + 4)) << 32;
    };
    EXPECT_EQ(counter(0), c.warp_instructions);
    EXPECT_EQ(counter(1), c.sm_cycles);
    EXPECT_EQ(counter(2), c.mem_cycles);
    EXPECT_EQ(counter(3), c.time_fs);
    const uint64_t bits = counter(4);
    double energy = 0;
    std::memcpy(&energy, &bits, 8);
    EXPECT_EQ(energy, c.energy_j);
    b.wr(kCountersLatch, 0);  // bit 0 clear: no latch
    EXPECT_EQ(reads, 1);

    EXPECT_EQ(b.rd(kVfSm), 2u);
    EXPECT_EQ(b.rd(kVfSmKhz), 700500u);
    EXPECT_EQ(b.rd(kVfMem), 1u | 1u << 8);  // in transition
    EXPECT_EQ(b.rd(kVfMemKhz), 924000u);

    EXPECT_EQ(b.rd(kPolicyCsr + 0x10), 0xC0FFEEu);
    b.wr(kPolicyCsr + 0x10, 42);
    EXPECT_EQ(b.policy.reg, 42u);
  };
  sc_core::sc_start();
}

}  // namespace
}  // namespace gpupm
