// A platform whose CPU runs a CUDA program on data in its own memory
// (docs/embedding.md#data-through-the-sockets): the GPU with memory.data
// "platform" over the platform's loosely-timed RAM (platform_ram.h, with DMI),
// and a CPU (driver_cpu.h) that puts k-means' inputs in that RAM, launches its
// two kernels by descriptor and reads the results back. It prints what it
// measured, writes OUT_DIR/assignment.npy, OUT_DIR/centroids.npy (the
// buffers `gpupm run --dump-buffers` writes for the same workload) and
// OUT_DIR/report.json, and exits 0 only if its checks pass (1 otherwise; 2 on
// bad input).
// Usage: driver OUT_DIR
#include "driver_cpu.h"
#include "platform_ram.h"

#include <gpupm/common/data_dir.h>
#include <gpupm/platform/gpu.h>
#include <gpupm/platform/run_setup.h>
#include <gpupm/program/npy.h>
#include <gpupm/report/report_writer.h>

#include <systemc>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

constexpr uint64_t kRamBase = 0x80000000;  // where a SoC's DRAM often starts
constexpr uint64_t kRamBytes = 1 << 20;
constexpr double kRamLatencyNs = 300.0;
constexpr uint32_t kIterations = 4;  // assign + update, as the workload's launches; then a final assign
const char* const kWorkload = "configs/workloads/cuda/kmeans/kmeans.json";

gpupm::RunInputs example_inputs() {
  gpupm::RunInputs in;
  in.gpu_file = gpupm::data_file("configs/gpu/gtx480.json");
  in.workload_file = gpupm::data_file(kWorkload);  // the program; its buffers and launches are not run
  in.sets = {"gpu.memory.system=external", "gpu.memory.protocol=lt", "gpu.memory.data=platform"};
  return in;
}

// The application's inputs: the files the workload's buffers are initialised from.
KmeansData load_inputs() {
  const std::string dir = std::filesystem::path(gpupm::data_file(kWorkload)).parent_path().string();
  const gpupm::NpyArray points = gpupm::read_npy(dir + "/points.npy");
  const gpupm::NpyArray centroids = gpupm::read_npy(dir + "/centroids0.npy");
  KmeansData d;
  d.points.resize(points.count);
  d.centroids.resize(centroids.count);
  std::memcpy(d.points.data(), points.bytes.data(), points.bytes.size());
  std::memcpy(d.centroids.data(), centroids.bytes.data(), centroids.bytes.size());
  d.n = uint32_t(points.count / 4);
  d.k = uint32_t(centroids.count / 4);
  return d;
}

gpupm::HostInterfaceOptions host_launches() {
  gpupm::HostInterfaceOptions host;
  host.host_launches = true;
  return host;
}

struct Platform {
  explicit Platform(gpupm::LoadedRun loaded)
      : run(std::move(loaded)),
        data(load_inputs()),
        gpu("gpu", run.gpu, run.workload, std::move(run.policy), host_launches()),
        ram("ram", kRamBase, kRamBytes, sc_core::sc_time(kRamLatencyNs, sc_core::SC_NS)),
        cpu("cpu", data, kRamBase, kIterations) {
    for (auto& socket : gpu.mem_out()) socket.bind(ram.in);
    cpu.mem_bus.bind(ram.in);
    cpu.gpu_bus.bind(gpu.host_in);
    cpu.irq.bind(gpu.irq_o);
  }
  gpupm::LoadedRun run;  // must outlive gpu
  KmeansData data;
  gpupm::Gpu gpu;
  PlatformRam ram;
  DriverCpu cpu;
};

// Each point's nearest centroid as kmeans_assign computes it (fmaf, first of equals).
bool assignment_is_nearest(const KmeansData& d) {
  for (uint32_t i = 0; i < d.n; ++i) {
    int32_t best = 0;
    float best_distance = 3.0e38f;
    for (uint32_t c = 0; c < d.k; ++c) {
      float distance = 0.0f;
      for (int dim = 0; dim < 4; ++dim) {
        const float diff = d.points[i * 4 + dim] - d.centroids[c * 4 + dim];
        distance = std::fmaf(diff, diff, distance);
      }
      if (distance < best_distance) best_distance = distance, best = int32_t(c);
    }
    if (d.assignment[i] != best) return false;
  }
  return true;
}

void save(const std::string& file, const char* dtype, const void* bytes, uint64_t count) {
  gpupm::NpyArray a;
  a.dtype = dtype;
  a.count = count;
  a.bytes.assign(static_cast<const uint8_t*>(bytes), static_cast<const uint8_t*>(bytes) + count * 4);
  gpupm::write_npy(file, a);
}

int run_platform(const std::string& out_dir) {
  Platform p(gpupm::load_run(example_inputs()));
  sc_core::sc_start();
  const DriverReadings& r = p.cpu.readings();
  const PlatformRam::Counts& ram = p.ram.counts();
  std::filesystem::create_directories(out_dir);
  save(out_dir + "/assignment.npy", "<i4", p.data.assignment.data(), p.data.n);
  save(out_dir + "/centroids.npy", "<f4", p.data.centroids.data(), p.data.centroids.size());
  const gpupm::Json report = gpupm::build_report(p.gpu, p.run.doc);
  std::ofstream(out_dir + "/report.json") << report.dump(2) << "\n";
  std::cout << "kernel_count " << r.kernel_count << "\nlaunches " << r.launches << "\nirq_rises " << r.irq_rises
            << "\ninstructions " << r.instructions << "\ntime_fs " << r.time_fs << "\nram_line_reads " << ram.reads
            << "\nram_dmi_grants " << ram.dmi_grants << "\nram_debug " << ram.debug << "\n";
  bool all = true;
  auto expect = [&all](bool ok, const char* what) {
    std::cout << (ok ? "ok     " : "FAILED ") << what << "\n";
    all &= ok;
  };
  const uint32_t planned = 2 * kIterations + 1;
  expect(r.platform_data && r.kernel_count == 2, "STATUS.PLATFORM_DATA, KERNEL_COUNT 2");
  expect(r.refused == 0 && r.launches == planned && r.commands_done == planned && p.gpu.kernels_done() == planned,
         "every launch taken and done");
  expect(r.run_ended && r.irq_rises == planned + 1, "each launch's end and the run's raised the interrupt");
  expect(r.instructions > 0 && r.instructions == p.gpu.finish().sm.insts, "INSTRUCTIONS: the run's total");
  expect(ram.dmi_grants > 0 && ram.reads > 0, "the GPU's data by DMI, its timing by the RAM's line reads");
  expect(assignment_is_nearest(p.data), "each point assigned to its nearest final centroid");
  return all ? 0 : 1;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);  // first: before any sc_time exists
  gpupm::set_data_dir(GPUPM_INSTALLED_DATA_DIR);
  if (argc != 2) {
    std::cerr << "usage: driver OUT_DIR\n";
    return 2;
  }
  try {
    return run_platform(argv[1]);
  } catch (const gpupm::InputError& e) {
    std::cerr << "driver: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "driver: " << e.what() << "\n";
    return 1;
  }
}
