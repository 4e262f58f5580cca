// The key names of report.json (schema: docs/report.schema.json) that its
// writer (report_writer.cc, metrics.cc) and its readers (experiment/report_view.h)
// share, so a renamed field is renamed in one place.
#pragma once

namespace gpupm::report_key {

// Top level.
inline constexpr char kConfig[] = "config";  // {"gpu": ..., "workload": ..., "policy": ...} as the run used them
inline constexpr char kKernels[] = "kernels";
inline constexpr char kTotal[] = "total";
inline constexpr char kApps[] = "apps";
inline constexpr char kPolicyTrace[] = "policy_trace";
inline constexpr char kVoltageNoise[] = "voltage_noise";
inline constexpr char kMemory[] = "memory";  // only with memory.system "external"

// An interval's metrics (report.total, report.kernels[i]): metrics.cc.
inline constexpr char kSimTime[] = "sim_time_s";
inline constexpr char kCycles[] = "cycles";
inline constexpr char kInstructions[] = "instructions";
inline constexpr char kIpc[] = "ipc";
inline constexpr char kEnergy[] = "energy_j";
inline constexpr char kAveragePower[] = "average_power_w";
inline constexpr char kVfResidency[] = "vf_residency";
inline constexpr char kWarpStates[] = "warp_states";
inline constexpr char kL1HitRate[] = "l1_hit_rate";
inline constexpr char kL2HitRate[] = "l2_hit_rate";
inline constexpr char kDramUtilisation[] = "dram_bandwidth_utilisation";
inline constexpr char kDramBandwidth[] = "dram_bandwidth_gbps";
inline constexpr char kL2ToL1Bandwidth[] = "l2_to_l1_gbps";
inline constexpr char kMemComputeRatio[] = "mem_compute_ratio";

// A real program's launch (report.kernels[i]): its .entry name.
inline constexpr char kLaunchKernel[] = "kernel";

// Inside energy_j (power/power_model.cc writes these).
inline constexpr char kEnergyTotal[] = "total";
inline constexpr char kByDomain[] = "by_domain";
inline constexpr char kByComponent[] = "by_component";

}  // namespace gpupm::report_key
