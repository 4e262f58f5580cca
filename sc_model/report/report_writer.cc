#include "gpupm/report/report_writer.h"

#include "gpupm/common/build_info.h"
#include "gpupm/common/csv_writer.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/report/metrics.h"
#include "gpupm/report/report_keys.h"

#include <cstdio>
#include <sstream>

namespace gpupm {

Json provenance_json() { return {{"version", gpupm_version()}, {"build_id", gpupm_build_id()}}; }

namespace {

// Each SM's energy and average power over (a, b].
Json per_sm_json(const Snapshot& a, const Snapshot& b, uint32_t sms) {
  const double dt = b.time_s - a.time_s;
  Json list = Json::array();
  for (uint32_t i = 0; i < sms; ++i) {
    const double e = sm_energy_between(a, b, i);
    list.push_back({{"sm", i}, {"energy_j", e}, {"average_power_w", dt > 0 ? e / dt : 0.0}});
  }
  return list;
}

// memory.system "external": what the SMs' sockets saw, and that nothing behind
// them is modelled (the zeros of the memory's energy and counters are not measurements).
Json external_memory_json(const Gpu& gpu) {
  const MemActivity& a = gpu.start().mem;
  const MemActivity& b = gpu.finish().mem;
  const uint64_t line = gpu.config().mem.line_bytes;
  const uint64_t reads = b.reads - a.reads, writes = b.writes - a.writes;
  const uint64_t responses = b.read_responses - a.read_responses;
  const double latency_ps = double(b.read_latency_sum_ps - a.read_latency_sum_ps);
  return {{"system", "external"},
          {"energy_modelled", false},
          {"counters_modelled", false},
          {"seen_by_the_sms",
           {{"line_reads", reads},
            {"line_writes", writes},
            {"bytes_read", reads * line},
            {"bytes_written", writes * line},
            {"read_responses", responses},
            {"mean_read_latency_ns", responses ? latency_ps / double(responses) / 1000.0 : 0.0}}},
          {"note",
           "the memory behind gpupm::Gpu::mem_out() is the platform's: its energy (energy_j by_domain.mem; "
           "mem_dynamic, mem_leakage, dram_dynamic, dram_standby) and counters (l2_hit_rate, "
           "dram_bandwidth_utilisation, dram_bandwidth_gbps, dram_row_hit_rate) are not modelled and read 0; "
           "l2_to_l1_gbps and mean_read_latency_ns are measured at the SMs' sockets"}};
}

}  // namespace

Json build_report(Gpu& gpu, const Json& config_echo) {
  MetricContext ctx = gpu.metric_context();
  Json kernels = Json::array();
  for (const KernelRecord& k : gpu.kernels()) {
    Json m = interval_metrics(k.start, k.end, ctx);
    m["name"] = k.launch->name;
    m["kernel_index"] = k.launch->kernel_index;
    m["launch"] = k.launch->launch;
    m["start_s"] = k.start.time_s;
    if (k.launch->program) {  // a real program's launch: as the host launched it
      m[report_key::kLaunchKernel] = k.launch->name;
      m["grid"] = k.launch->grid_dim;
      m["block"] = k.launch->block_dim;
    }
    if (gpu.workload().apps_form) {
      // Concurrent applications: the interval metrics above cover the whole GPU
      // (both apps); the kernel's own instructions are exact from its profile.
      uint64_t own = launch_instructions(*k.launch);
      uint64_t cycles = k.end.sm_cycles - k.start.sm_cycles;
      m["app"] = k.launch->app;
      m["kernel_instructions"] = own;
      m["kernel_ipc"] = cycles ? double(own) / double(cycles) : 0.0;
    }
    kernels.push_back(std::move(m));
  }
  Json apps = Json::array();
  if (gpu.workload().apps_form) {
    for (uint32_t a = 0; a < gpu.workload().apps.size(); ++a) {
      const KernelRecord* first = nullptr;
      const KernelRecord* last = nullptr;
      const KernelRecord* first_pass_end = nullptr;  // the app's last kernel, first time through
      const Application& app = gpu.workload().apps[a];
      // A re-spawned program's pass is its first run's launches (its launches come from its host).
      const auto* program = dynamic_cast<const ProgramHost*>(app.source.get());
      const size_t per_pass = gpu.workload().respawn && program ? program->first_pass_launches() : app.launches.size();
      uint64_t insts = 0, count = 0;
      for (const KernelRecord& k : gpu.kernels()) {
        if (k.launch->app != a) continue;
        if (!first || k.start.time_s < first->start.time_s) first = &k;
        if (!last || k.end.time_s > last->end.time_s) last = &k;
        insts += launch_instructions(*k.launch);
        if (++count == per_pass) first_pass_end = &k;
      }
      Json j = {{"app", a},
                {"name", gpu.workload().apps[a].name},
                {"kernels_done", count},
                {"kernels_total", per_pass},
                {"instructions", insts}};
      if (gpu.workload().respawn) {  // a queue pair: kernels_done counts every pass
        j["passes"] = per_pass ? count / per_pass : 0;
        if (first_pass_end) j["first_pass_s"] = first_pass_end->end.time_s;
      }
      if (first) {
        uint64_t cycles = last->end.sm_cycles - first->start.sm_cycles;
        j["start_s"] = first->start.time_s;
        j["finish_s"] = last->end.time_s;
        j["sim_time_s"] = last->end.time_s - first->start.time_s;
        j["sm_cycles"] = cycles;
        j["ipc"] = cycles ? double(insts) / double(cycles) : 0.0;
      }
      apps.push_back(std::move(j));
    }
  }
  Json report = {{"format", "gpupm-report"},
                 {"format_version", 1},
                 {report_key::kConfig, config_echo},
                 {report_key::kKernels, kernels},
                 {report_key::kTotal, interval_metrics(gpu.start(), gpu.finish(), ctx)}};
  report["gpupm"] = provenance_json();
  report[report_key::kTotal]["sm"] = per_sm_json(gpu.start(), gpu.finish(), gpu.config().sm.count);
  if (!apps.empty()) report[report_key::kApps] = apps;
  if (gpu.config().mem.external) report[report_key::kMemory] = external_memory_json(gpu);
  if (const PdnDriver* pdn = gpu.pdn()) {  // only with an RLC network (gpu.pdn.model = rlc)
    Json vn = pdn->stats().to_json();
    const Json& net = config_echo.at("gpu").at("pdn").value("network", Json::object());
    vn["network"] = net.is_string() ? net.get<std::string>() : net.value("name", std::string("default"));
    const GlobalStagger* st = gpu.stagger();
    vn["smoothing"] = {{"local",
                        {{"enabled", gpu.config().smoothing.local.enabled},
                         {"throttled_cycles", gpu.finish().sm.throttled_cycles - gpu.start().sm.throttled_cycles}}},
                       {"global",
                        {{"enabled", st != nullptr},
                         {"triggers", st ? st->triggers() : 0},
                         {"held_sm_cycles", st ? st->held_sm_cycles() : 0}}}};
    report[report_key::kVoltageNoise] = vn;
  }
  Json trace = gpu.policy().trace();
  if (!trace.is_null()) report[report_key::kPolicyTrace] = trace;
  return report;
}

std::string build_epochs_csv(const Gpu& gpu, const DvfsConfig& dvfs) {
  CsvWriter out(9);
  out.row({"epoch",         "end_time_us",
           "sm_cycle",      "kernel",
           "sm_level",      "sm_mhz",
           "mem_level",     "mem_mhz",
           "v_sm",          "v_mem",
           "instructions",  "ipc",
           "power_sm_w",    "power_mem_w",
           "power_total_w", "mean_ctas_per_sm",
           "active",        "waiting",
           "excess_alu",    "excess_mem",
           "l1_hit_rate",   "dram_bandwidth_utilisation"});
  MetricContext ctx = gpu.metric_context();
  const Snapshot* prev = &gpu.start();
  for (const EpochRecord& e : gpu.epochs()) {
    Json m = interval_metrics(*prev, e.end, ctx);
    double t = m["sim_time_s"].get<double>();
    auto watts = [&](const char* d) { return t > 0 ? m["energy_j"]["by_domain"][d].get<double>() / t : 0.0; };
    const auto& ws = m["warp_states"];
    out << e.index << e.end.time_s * 1e6 << e.end.sm_cycles << e.kernel << dvfs[Domain::Sm].levels[e.sm_level].name
        << dvfs[Domain::Sm].levels[e.sm_level].mhz << dvfs[Domain::Mem].levels[e.mem_level].name
        << dvfs[Domain::Mem].levels[e.mem_level].mhz << e.v_sm << e.v_mem << m["instructions"].get<uint64_t>()
        << m["ipc"].get<double>() << watts("sm") << watts("mem") << m["average_power_w"].get<double>()
        << m["mean_ctas_per_sm"].get<double>() << ws["active"].get<double>() << ws["waiting"].get<double>()
        << ws["excess_alu"].get<double>() << ws["excess_mem"].get<double>() << m["l1_hit_rate"].get<double>()
        << m["dram_bandwidth_utilisation"].get<double>();
    out.end_row();
    prev = &e.end;
  }
  return out.str();
}

std::string build_sm_epochs_csv(const Gpu& gpu) {
  const size_t sms = gpu.config().sm.count;
  CsvWriter out(9);
  out << "epoch"
      << "end_time_us"
      << "sm_cycle"
      << "kernel";
  for (size_t i = 0; i < sms; ++i) out << "power_sm" + std::to_string(i) + "_w";
  for (size_t i = 0; i < sms; ++i) out << "energy_sm" + std::to_string(i) + "_j";
  out.end_row();
  const Snapshot* prev = &gpu.start();
  for (const EpochRecord& e : gpu.epochs()) {
    const double dt = e.end.time_s - prev->time_s;
    out << e.index << e.end.time_s * 1e6 << e.end.sm_cycles << e.kernel;
    for (size_t i = 0; i < sms; ++i) out << (dt > 0 ? sm_energy_between(*prev, e.end, i) / dt : 0.0);
    for (size_t i = 0; i < sms; ++i) out << sm_energy_between(*prev, e.end, i);
    out.end_row();
    prev = &e.end;
  }
  return out.str();
}

std::string summary_table(const Json& report) {
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line, "%-22s %12s %7s %11s %9s %7s %7s %7s %6s\n", "kernel", "time_us", "IPC", "energy_mJ",
                "power_W", "L1_hit", "L2_hit", "DRAM_bw", "CTAs");
  out << line;
  auto row = [&](const std::string& name, const Json& m) {
    std::snprintf(line, sizeof line, "%-22s %12.2f %7.3f %11.4f %9.2f %7.3f %7.3f %7.3f %6.2f\n",
                  name.substr(0, 22).c_str(), m["sim_time_s"].get<double>() * 1e6, m["ipc"].get<double>(),
                  m["energy_j"]["total"].get<double>() * 1e3, m["average_power_w"].get<double>(),
                  m["l1_hit_rate"].get<double>(), m["l2_hit_rate"].get<double>(),
                  m["dram_bandwidth_utilisation"].get<double>(), m["mean_ctas_per_sm"].get<double>());
    out << line;
  };
  for (const Json& k : report["kernels"])
    row(k["name"].get<std::string>() + "#" + std::to_string(k["launch"].get<int>()), k);
  row("TOTAL", report["total"]);
  return out.str();
}

}  // namespace gpupm
