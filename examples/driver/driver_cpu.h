// The platform's CPU running a k-means application on the GPU as a driver
// would (docs/embedding.md#data-through-the-sockets): it allocates the
// buffers in the platform's RAM, copies the inputs there over its own bus,
// writes each kernel's parameter block (pointers are RAM addresses), launches
// kmeans_assign and kmeans_update by descriptor (LAUNCH_KERNEL) one at a time,
// waiting for each one's interrupt, ends the run and copies the results back.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <vector>

// The application's data: n points of 4 floats, k centroids of 4 floats.
struct KmeansData {
  uint32_t n = 0, k = 0;
  std::vector<float> points, centroids;
  std::vector<int32_t> assignment;  // the results
};

// What the CPU saw, for sc_main to print and check.
struct DriverReadings {
  uint32_t kernel_count = 0, launches = 0, commands_done = 0, irq_rises = 0;
  bool platform_data = false;  // STATUS.PLATFORM_DATA
  bool run_ended = false;
  uint32_t refused = 0;  // ERROR_CODE after a doorbell: 0 when all were taken
  uint64_t instructions = 0, time_fs = 0;
};

class DriverCpu : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DriverCpu> gpu_bus{"gpu_bus"};  // the GPU's host_in
  tlm_utils::simple_initiator_socket<DriverCpu> mem_bus{"mem_bus"};  // the platform's RAM
  sc_core::sc_in<bool> irq{"irq"};

  // `data` in, its assignment and centroids out; the RAM's first byte at `ram_base`.
  DriverCpu(sc_core::sc_module_name name, KmeansData& data, uint64_t ram_base, uint32_t iterations);
  const DriverReadings& readings() const { return readings_; }

 private:
  void run();
  uint64_t allocate(uint64_t bytes);  // 256-byte aligned, as cudaMalloc's
  void copy_to_ram(uint64_t addr, const void* bytes, uint64_t n);
  void copy_from_ram(uint64_t addr, void* bytes, uint64_t n);
  void memory(tlm::tlm_command command, uint64_t addr, unsigned char* bytes, uint64_t n);
  void launch(uint32_t kernel, uint32_t grid, uint32_t block, uint64_t params, uint32_t params_size);
  uint32_t read(uint32_t addr);
  void write(uint32_t addr, uint32_t value);
  uint32_t access(tlm::tlm_command command, uint32_t addr, uint32_t value);
  uint64_t counter(uint32_t index);
  void count_irq() { ++readings_.irq_rises; }

  KmeansData& data_;
  uint64_t next_free_;
  const uint32_t iterations_;
  DriverReadings readings_;
};
