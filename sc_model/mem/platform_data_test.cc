// PlatformData against a fake platform memory (a tlm_fw_transport_if with a
// byte array): DMI used in place where granted, debug-transport copies where
// not, writes reaching the memory at the instruction's end, and DMI withdrawn.
// No simulation: the calls are all functional. Last, kernels run by the PTX
// executor on it (ptx_test_driver.h): atomics, vector stores, module variables.
#include "gpupm/mem/platform_data.h"

#include "gpupm/ptx/ptx_test_driver.h"

#include <gtest/gtest.h>

#include <cstring>

namespace gpupm {
namespace {

constexpr uint64_t kBase = 0x80000000;

struct FakeMemory : tlm::tlm_fw_transport_if<> {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(4096, 0);
  bool grant_dmi = true, dmi_writable = true, dmi_for_reads_only = false, refuse_debug_writes = false;
  int dmi_asked = 0, debug_writes = 0;

  bool inside(uint64_t addr, uint64_t n) const { return addr >= kBase && addr + n <= kBase + bytes.size(); }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
    ADD_FAILURE() << "no timing transaction expected";
    return tlm::TLM_COMPLETED;
  }
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override { ADD_FAILURE() << "no b_transport"; }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) override {
    ++dmi_asked;
    if (!grant_dmi || !inside(gp.get_address(), 1)) return false;  // denied everywhere (tlm_dmi's defaults)
    if (dmi_for_reads_only && gp.is_write()) {                     // a ROM: denied for writing, over the ROM only
      dmi.set_start_address(kBase);
      dmi.set_end_address(kBase + bytes.size() - 1);
      return false;
    }
    dmi.set_dmi_ptr(bytes.data());
    dmi.set_start_address(kBase);
    dmi.set_end_address(kBase + bytes.size() - 1);
    dmi.allow_read();
    if (dmi_writable && !dmi_for_reads_only) dmi.allow_read_write();
    return true;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) override {
    const uint32_t n = gp.get_data_length();
    if (!inside(gp.get_address(), n)) return 0;
    uint8_t* at = bytes.data() + (gp.get_address() - kBase);
    if (gp.is_write()) {
      if (refuse_debug_writes) return 0;
      std::memcpy(at, gp.get_data_ptr(), n);
      ++debug_writes;
    } else {
      std::memcpy(gp.get_data_ptr(), at, n);
    }
    return n;
  }
};

struct PlatformDataTest : ::testing::Test {
  FakeMemory memory;
  PlatformData data{2, [this](uint32_t) -> tlm::tlm_fw_transport_if<>& { return memory; }};
};

TEST_F(PlatformDataTest, GrantedDmiIsUsedInPlace) {
  uint8_t* p = data.begin_access(1, kBase + 64, 8, true);
  ASSERT_EQ(p, memory.bytes.data() + 64);
  p[0] = 42;
  data.end_access(1);
  EXPECT_EQ(memory.bytes[64], 42);
  EXPECT_EQ(data.begin_access(1, kBase + 128, 4, false), memory.bytes.data() + 128);
  EXPECT_EQ(memory.dmi_asked, 1);  // once for the range it granted
  EXPECT_EQ(data.counts().dmi, 2u);
  EXPECT_EQ(data.counts().debug_reads, 0u);
}

TEST_F(PlatformDataTest, WithoutDmiWritesReachTheMemoryAtTheInstructionsEnd) {
  memory.grant_dmi = false;
  memory.bytes[16] = 5;
  uint8_t* p = data.begin_access(0, kBase + 16, 4, true);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p[0], 5);
  p[0] = 6;  // an atomic's first lane
  EXPECT_EQ(memory.bytes[16], 5);
  uint8_t* again = data.begin_access(0, kBase + 16, 4, true);  // its second lane: the same bytes, updated
  EXPECT_EQ(again, p);
  again[0] = uint8_t(again[0] + 1);
  data.end_access(0);
  EXPECT_EQ(memory.bytes[16], 7);
  EXPECT_EQ(memory.debug_writes, 1);
  EXPECT_EQ(memory.dmi_asked, 1);  // denied for the whole space: never asked again
  EXPECT_EQ(data.counts().debug_reads, 1u);
}

TEST_F(PlatformDataTest, AnotherAccessWritesTheLastOneBackFirst) {
  memory.grant_dmi = false;
  data.begin_access(0, kBase, 4, true)[1] = 9;
  const uint8_t* q = data.begin_access(0, kBase, 8, false);  // wider: copied anew, after the write
  EXPECT_EQ(memory.bytes[1], 9);
  EXPECT_EQ(q[1], 9);
  data.end_access(0);
  EXPECT_EQ(memory.debug_writes, 1);  // the read is not written back
}

TEST_F(PlatformDataTest, ReadOnlyDmiSendsWritesThroughDebugTransport) {
  memory.dmi_writable = false;
  EXPECT_EQ(data.begin_access(0, kBase, 4, false), memory.bytes.data());
  uint8_t* p = data.begin_access(0, kBase + 8, 4, true);
  ASSERT_NE(p, nullptr);
  EXPECT_NE(p, memory.bytes.data() + 8);
  p[0] = 1;
  data.end_access(0);
  EXPECT_EQ(memory.bytes[8], 1);
}

TEST_F(PlatformDataTest, ReadDmiServesLoadsAndDebugTransportStores) {
  memory.dmi_for_reads_only = true;
  EXPECT_EQ(data.begin_access(0, kBase, 4, false), memory.bytes.data());
  uint8_t* p = data.begin_access(0, kBase + 8, 4, true);  // asked again, for writing: denied
  ASSERT_NE(p, nullptr);
  EXPECT_NE(p, memory.bytes.data() + 8);
  p[0] = 3;
  EXPECT_TRUE(data.end_access(0));
  EXPECT_EQ(memory.bytes[8], 3);
  EXPECT_EQ(data.begin_access(0, kBase + 16, 4, false), memory.bytes.data() + 16);  // the grant for reading stands
  EXPECT_EQ(memory.dmi_asked, 2);
}

TEST_F(PlatformDataTest, ARefusedWriteBackIsReported) {
  memory.grant_dmi = false;
  memory.refuse_debug_writes = true;
  data.begin_access(0, kBase, 4, true)[0] = 1;
  data.begin_access(0, kBase + 64, 4, false);  // writes the first back (refused) before copying this one
  EXPECT_FALSE(data.end_access(0));
  EXPECT_TRUE(data.end_access(0));  // reported once
  EXPECT_EQ(memory.bytes[0], 0);
}

TEST_F(PlatformDataTest, NoMemoryThereIsNull) {
  EXPECT_EQ(data.begin_access(0, kBase - 4, 4, false), nullptr);
  EXPECT_EQ(data.begin_access(0, kBase + 4094, 4, false), nullptr);  // runs past the end
  uint8_t out[4];
  EXPECT_FALSE(data.read(kBase + 4096, out, 4));
}

TEST_F(PlatformDataTest, WithdrawnDmiIsAskedForAgain) {
  data.begin_access(0, kBase, 4, false);
  data.invalidate(0, kBase + 100, kBase + 200);
  memory.grant_dmi = false;
  const uint8_t* p = data.begin_access(0, kBase, 4, false);
  EXPECT_NE(p, memory.bytes.data());  // copied now
  EXPECT_EQ(memory.dmi_asked, 2);
  data.begin_access(1, kBase, 4, false);  // SM 1 asks for itself
  EXPECT_EQ(memory.dmi_asked, 3);
}

TEST_F(PlatformDataTest, ReadCopiesAParameterBlock) {
  memory.grant_dmi = false;
  for (int i = 0; i < 16; ++i) memory.bytes[size_t(200 + i)] = uint8_t(i);
  uint8_t out[16] = {};
  ASSERT_TRUE(data.read(kBase + 200, out, 16));
  EXPECT_EQ(out[15], 15);
  EXPECT_EQ(memory.debug_writes, 0);
}

// Each lane adds 1 to a counter (returning the old value) and to one of the
// module's four variables, after loading it; the pairs are stored as vectors.
const char* const kPlatformKernel = R"(.version 7.0
.target sm_70
.address_size 64
.visible .global .align 4 .u32 gtab[4] = {5, 6, 7, 8};
.visible .entry k(.param .u64 k_a, .param .u64 k_out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [k_a];
  ld.param.u64 %rd2, [k_out];
  mov.u32 %r1, %tid.x;
  atom.global.add.u32 %r2, [%rd1], 1;
  and.b32 %r3, %r1, 3;
  mul.wide.u32 %rd3, %r3, 4;
  mov.u64 %rd4, gtab;
  add.s64 %rd5, %rd4, %rd3;
  ld.global.u32 %r4, [%rd5];
  atom.global.add.u32 %r5, [%rd5], 1;
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd7, %rd2, %rd6;
  st.global.v2.u32 [%rd7], {%r2, %r4};
  ret;
}
)";

struct PlatformKernel : PlatformDataTest {
  ptx::test::Launch launch{kPlatformKernel, "k", ptx::Dim3{}, ptx::Dim3{32, 1, 1}};
  static constexpr uint64_t counter = kBase, out = kBase + 256;
  PlatformKernel() {
    launch.memory = ptx::DeviceMemory(ptx::kGpuWindow);  // the module's variables: the GPU's own
    launch.memory.load(*launch.module);
    launch.state.platform = &data;
    launch.param(0, counter);
    launch.param(1, out);
  }
  uint32_t word(uint64_t addr) const {
    uint32_t v;
    std::memcpy(&v, memory.bytes.data() + (addr - kBase), 4);
    return v;
  }
  void run_and_check() {
    launch.run();
    EXPECT_EQ(word(counter), 32u);
    for (uint32_t t = 0; t < 32; ++t) {
      EXPECT_EQ(word(out + 8 * t), t) << "lane order of the atomic, lane " << t;
      EXPECT_EQ(word(out + 8 * t + 4), 5 + t % 4) << t;
    }
    EXPECT_EQ(launch.read<uint32_t>(launch.memory.symbol("gtab"), 4), (std::vector<uint32_t>{13, 14, 15, 16}));
  }
};

TEST_F(PlatformKernel, RunsThroughDmi) {
  run_and_check();
  EXPECT_GT(data.counts().dmi, 0u);
  EXPECT_EQ(data.counts().debug_reads, 0u);
}

TEST_F(PlatformKernel, RunsThroughDebugTransport) {
  memory.grant_dmi = false;
  run_and_check();
  EXPECT_EQ(data.counts().dmi, 0u);
  EXPECT_EQ(data.counts().debug_writes, 2u);  // the atomic (32 lanes on one word), then the vector store
}

TEST_F(PlatformKernel, StoresThePlatformDoesNotTakeAreAFault) {
  memory.grant_dmi = false;
  memory.refuse_debug_writes = true;
  try {
    launch.run();
    FAIL() << "no fault";
  } catch (const ptx::ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("atom.global.add.u32"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("did not take the instruction's stores back"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpupm
