#include "driver_cpu.h"

#include <gpupm/host/command_processor.h>  // host_reg: the register map

#include <algorithm>
#include <cstring>

using namespace gpupm::host_reg;

namespace {
// The kernels' parameters as C structs: the PTX .param layout (pointers 8 bytes, each aligned to its size).
struct AssignParams {  // kmeans_assign(points, centroids, assignment, n, k)
  uint64_t points, centroids, assignment;
  int32_t n, k;
};
struct UpdateParams {  // kmeans_update(points, assignment, centroids, n)
  uint64_t points, assignment, centroids;
  int32_t n;
};
constexpr uint32_t kAssign = 0, kUpdate = 1;  // the workload's kernels in order of first launch
constexpr uint32_t kAssignBlock = 128, kUpdateBlock = 256;
}  // namespace

DriverCpu::DriverCpu(sc_core::sc_module_name name, KmeansData& data, uint64_t ram_base, uint32_t iterations)
    : sc_module(name), data_(data), next_free_(ram_base), iterations_(iterations) {
  SC_HAS_PROCESS(DriverCpu);
  SC_THREAD(run);
  SC_METHOD(count_irq);
  sensitive << irq.pos();
  dont_initialize();
}

void DriverCpu::run() {
  if (read(kId) != kIdValue) SC_REPORT_ERROR("example/driver", "ID: not a gpupm host interface (version 2)");
  readings_.platform_data = read(kStatus) & kStatusPlatformData;
  readings_.kernel_count = read(kKernelCount);
  const uint64_t points = allocate(data_.points.size() * 4), centroids = allocate(data_.centroids.size() * 4);
  const uint64_t assignment = allocate(uint64_t(data_.n) * 4);
  copy_to_ram(points, data_.points.data(), data_.points.size() * 4);
  copy_to_ram(centroids, data_.centroids.data(), data_.centroids.size() * 4);
  const AssignParams assign{points, centroids, assignment, int32_t(data_.n), int32_t(data_.k)};
  const UpdateParams update{points, assignment, centroids, int32_t(data_.n)};
  const uint64_t assign_params = allocate(sizeof assign), update_params = allocate(sizeof update);
  copy_to_ram(assign_params, &assign, sizeof assign);  // read by the GPU at each doorbell: written once
  copy_to_ram(update_params, &update, sizeof update);

  write(kIrqEnable, kIrqLaunchDone | kIrqRunDone);
  const uint32_t assign_grid = (data_.n + kAssignBlock - 1) / kAssignBlock;
  for (uint32_t i = 0; i < iterations_; ++i) {
    launch(kAssign, assign_grid, kAssignBlock, assign_params, sizeof assign);
    launch(kUpdate, data_.k, kUpdateBlock, update_params, sizeof update);  // a CTA per centroid
  }
  launch(kAssign, assign_grid, kAssignBlock, assign_params, sizeof assign);  // the final assignment
  write(kDoorbell, kCommandEndRun);
  while (!(read(kStatus) & kStatusRunEnded)) sc_core::wait(1, sc_core::SC_US);
  readings_.run_ended = true;
  readings_.commands_done = read(kCommandsDone);
  write(kCountersLatch, 1);
  readings_.instructions = counter(0);
  readings_.time_fs = counter(3);

  data_.assignment.resize(data_.n);
  copy_from_ram(assignment, data_.assignment.data(), uint64_t(data_.n) * 4);
  copy_from_ram(centroids, data_.centroids.data(), data_.centroids.size() * 4);
}

// One kernel by its descriptor; IRQ_STATUS says it is done (the interrupt wakes the CPU), and is cleared (RW1C).
void DriverCpu::launch(uint32_t kernel, uint32_t grid, uint32_t block, uint64_t params, uint32_t params_size) {
  write(kKernel, kernel);
  write(kGrid, grid);
  write(kBlock, block);
  write(kParamsLo, uint32_t(params));
  write(kParamsHi, uint32_t(params >> 32));
  write(kParamsSize, params_size);
  write(kDoorbell, kCommandLaunchKernel);
  if (const uint32_t code = read(kErrorCode)) {
    readings_.refused = code;
    return;
  }
  ++readings_.launches;
  while (!(read(kIrqStatus) & kIrqLaunchDone)) sc_core::wait(irq.posedge_event());  // already done: no wait
  write(kIrqStatus, kIrqLaunchDone);
}

uint64_t DriverCpu::allocate(uint64_t bytes) {
  const uint64_t addr = next_free_;
  next_free_ += (bytes + 255) / 256 * 256;
  return addr;
}

void DriverCpu::copy_to_ram(uint64_t addr, const void* bytes, uint64_t n) {
  memory(tlm::TLM_WRITE_COMMAND, addr, static_cast<unsigned char*>(const_cast<void*>(bytes)), n);
}

void DriverCpu::copy_from_ram(uint64_t addr, void* bytes, uint64_t n) {
  memory(tlm::TLM_READ_COMMAND, addr, static_cast<unsigned char*>(bytes), n);
}

// Bursts of up to 4 KiB over the CPU's bus, each waiting out its latency.
void DriverCpu::memory(tlm::tlm_command command, uint64_t addr, unsigned char* bytes, uint64_t n) {
  for (uint64_t done = 0; done < n;) {
    const unsigned chunk = unsigned(std::min<uint64_t>(4096, n - done));
    tlm::tlm_generic_payload gp;
    gp.set_command(command);
    gp.set_address(addr + done);
    gp.set_data_ptr(bytes + done);
    gp.set_data_length(chunk);
    gp.set_streaming_width(chunk);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    mem_bus->b_transport(gp, delay);
    if (gp.is_response_error()) SC_REPORT_ERROR("example/driver", "the RAM refused an access");
    sc_core::wait(delay);
    done += chunk;
  }
}

uint32_t DriverCpu::read(uint32_t addr) { return access(tlm::TLM_READ_COMMAND, addr, 0); }

void DriverCpu::write(uint32_t addr, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, addr, value); }

// One 32-bit register access on host_in, waiting out its latency.
uint32_t DriverCpu::access(tlm::tlm_command command, uint32_t addr, uint32_t value) {
  tlm::tlm_generic_payload gp;
  gp.set_command(command);
  gp.set_address(addr);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  gp.set_data_length(4);
  gp.set_streaming_width(4);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  gpu_bus->b_transport(gp, delay);
  if (gp.is_response_error()) SC_REPORT_ERROR("example/driver", "the host interface refused an access");
  sc_core::wait(delay);
  return value;
}

uint64_t DriverCpu::counter(uint32_t index) {
  return uint64_t(read(kCounters + 8 * index)) | uint64_t(read(kCounters + 8 * index + 4)) << 32;
}
