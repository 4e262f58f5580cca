// The Equalizer controller on the whole platform: its registers through the
// policy host's CSR socket (docs/equalizer_csr.md) and its per-epoch effect.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include "gpupm/platform/gpu.h"
#include "gpupm/platform/run_setup.h"
#include "support/test_support.h"

namespace gpupm {
namespace {

struct CsrMaster : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<CsrMaster> out{"out"};
  explicit CsrMaster(sc_core::sc_module_name n) : sc_module(n) {}
  tlm::tlm_response_status access(bool write, uint32_t addr, uint32_t& data) {
    tlm::tlm_generic_payload gp;
    gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(gp, t);
    return gp.get_response_status();
  }
  uint32_t read(uint32_t addr) {
    uint32_t d = 0;
    EXPECT_EQ(access(false, addr, d), tlm::TLM_OK_RESPONSE) << std::hex << addr;
    return d;
  }
};

TEST(EqualizerPolicy, RegistersReflectTheLastEpoch) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);  // as an embedding platform does
  RunInputs in;
  in.gpu_file = test::source_path("configs/gpu/gtx480.json");
  in.workload_file = test::source_path("configs/workloads/compute.json");
  in.policy = "equalizer-perf";
  in.sets = {"workload.kernels[0].grid_ctas=90"};
  LoadedRun run = load_run(in);
  Gpu gpu("gpu", run.gpu, run.workload, std::move(run.policy));
  CsrMaster csr("csr");
  csr.out.bind(gpu.csr_target());
  sc_core::sc_start();  // no limit: the GPU goes quiet once done
  ASSERT_TRUE(gpu.done());

  uint32_t ctrl = csr.read(0x000);
  EXPECT_EQ(ctrl & 1, 1u);         // enabled
  EXPECT_EQ((ctrl >> 1) & 1, 0u);  // performance mode
  EXPECT_EQ(csr.read(0x004), 7u | 5u << 4 | 48u << 8);
  EXPECT_EQ(csr.read(0x008) & 0xfff, 512u);
  // A compute kernel: the SM domain went high, the last vote was COMP.
  uint32_t freq = csr.read(0x00C);
  EXPECT_EQ(freq & 3, 2u) << std::hex << freq;
  uint32_t sums0 = csr.read(0x100), sums1 = csr.read(0x104), decide = csr.read(0x108);
  uint32_t active = sums0 & 0xffff, waiting = sums0 >> 16, xalu = sums1 & 0xffff, xmem = sums1 >> 16;
  EXPECT_LE(waiting + xalu + xmem, active);
  EXPECT_LE(active, 48u * 32u);
  EXPECT_LE(decide >> 16 & 0xf, 6u);  // num_blocks within the kernel's 6
  // Writes: CTRL is read-write, TIMING read-only, holes unmapped.
  uint32_t energy = ctrl | 2u;
  EXPECT_EQ(csr.access(true, 0x000, energy), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ((csr.read(0x000) >> 1) & 1, 1u);
  uint32_t x = 0;
  EXPECT_EQ(csr.access(true, 0x004, x), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(csr.access(false, 0x100 + 0x10 * 15, x), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // SM 15 of 0..14
  EXPECT_EQ(csr.access(false, 0x102, x), tlm::TLM_BURST_ERROR_RESPONSE);                // unaligned
}

}  // namespace
}  // namespace gpupm
