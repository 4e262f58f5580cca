// PlatformData against a fake platform memory (a tlm_fw_transport_if with a
// byte array): DMI used in place where granted, debug-transport copies where
// not, writes reaching the memory at the instruction's end, and DMI withdrawn.
// No simulation: the calls are all functional.
#include "gpupm/mem/platform_data.h"

#include <gtest/gtest.h>

#include <cstring>

namespace gpupm {
namespace {

constexpr uint64_t kBase = 0x80000000;

struct FakeMemory : tlm::tlm_fw_transport_if<> {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(4096, 0);
  bool grant_dmi = true, dmi_writable = true;
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
    dmi.set_dmi_ptr(bytes.data());
    dmi.set_start_address(kBase);
    dmi.set_end_address(kBase + bytes.size() - 1);
    dmi.allow_read();
    if (dmi_writable) dmi.allow_read_write();
    return true;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) override {
    const uint32_t n = gp.get_data_length();
    if (!inside(gp.get_address(), n)) return 0;
    uint8_t* at = bytes.data() + (gp.get_address() - kBase);
    if (gp.is_write()) {
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

}  // namespace
}  // namespace gpupm
