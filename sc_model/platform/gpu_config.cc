#include "platform/gpu_config.h"

#include "controllers/stagger_unit_impl.h"
#include "controllers/droop_predictor_impl.h"

namespace gpupm {

namespace {
template <class F>
void section(JsonReader& r, const char* key, F parse) {
  JsonReader s = r.object(key);
  parse(s);
  s.finish();
}
}  // namespace

GpuConfig parse_gpu_config(const Json& doc, const std::string& file) {
  GpuConfig g;
  JsonReader r(doc, file, "");
  g.name = r.get_string("name");
  r.get_string("description", "");
  g.controller_impl = controller_impl_from_name(r.get_enum("controller_impl", controller_impl_names(), "cpp"));
  section(r, "sm", [&](JsonReader& s) { g.sm = parse_sm_config(s); });
  section(r, "memory", [&](JsonReader& s) { g.mem = parse_mem_config(s); });
  section(r, "dvfs", [&](JsonReader& s) { g.dvfs = parse_dvfs_config(s); });
  section(r, "power", [&](JsonReader& s) { g.power = parse_power_config(s); });
  if (r.has("gwde")) section(r, "gwde", [&](JsonReader& s) { g.gwde = parse_gwde_config(s); });
  if (r.has("sim"))
    section(r, "sim", [&](JsonReader& s) {
      g.sim.epoch_cycles = uint32_t(s.get_uint("epoch_cycles", 1, 1u << 30, g.sim.epoch_cycles));
      g.sim.sample_period = uint32_t(s.get_uint("sample_period", 1, 1u << 30, g.sim.sample_period));
      g.sim.seed = s.get_uint("seed", 0, ~uint64_t(0) >> 1, g.sim.seed);
      g.sim.max_sim_ms = s.get_double("max_sim_ms", 1e-6, 1e9, g.sim.max_sim_ms);
    });
  if (r.has("pdn")) section(r, "pdn", [&](JsonReader& s) { g.pdn = parse_pdn_config(s); });
  if (r.has("smoothing"))
    section(r, "smoothing", [&](JsonReader& s) {
      g.smoothing = parse_smoothing_config(s, g.sm.count, g.sm.schedulers);
      // Where the blocks run as RTL, a Verilated build must match their parameters.
      std::string why;
      if (g.controller_impl != ControllerImpl::kCpp && g.smoothing.local.enabled &&
          !droop_pred_rtl_available({uint8_t(g.sm.schedulers)}, &why))
        throw InputError(file, "smoothing.local.enabled", why);
      if (g.controller_impl != ControllerImpl::kCpp && g.smoothing.global.enabled &&
          !stagger_rtl_available({uint8_t(g.sm.count), g.smoothing.global.report_period,
                                  g.smoothing.global.window_slots}, &why))
        throw InputError(file, "smoothing.global.enabled", why);
    });
  r.finish();
  // One SM request is one line: a memory line of another size would only fail at run time.
  if (g.mem.line_bytes != g.sm.line_bytes)
    throw InputError(file, "memory.line_bytes",
                     "expected " + std::to_string(g.sm.line_bytes) + " (equal to sm.line_bytes), got " +
                         std::to_string(g.mem.line_bytes));
  validate_pdn_config(g.pdn, g.sm.count, file);
  return g;
}

namespace {
// The JSON path of a launch's kernel: kernel_index counts across apps, the file per app.
std::string kernel_path(const Workload& w, const KernelLaunch& k) {
  if (!w.apps_form || k.app >= w.apps.size()) return "kernels[" + std::to_string(k.kernel_index) + "]";
  uint32_t first = k.kernel_index;
  for (const auto& l : w.apps[k.app].launches) first = std::min(first, l->kernel_index);
  return "apps[" + std::to_string(k.app) + "].kernels[" + std::to_string(k.kernel_index - first) + "]";
}
}  // namespace

void validate_workload(const Workload& w, const GpuConfig& gpu, const std::string& file) {
  for (size_t i = 0; i < w.launches.size(); ++i) {
    const KernelLaunch& k = *w.launches[i];
    const std::string path = kernel_path(w, k);
    if (k.warps_per_cta > gpu.sm.max_warps)
      throw InputError(file, path + ".warps_per_cta",
                       "expected at most " + std::to_string(gpu.sm.max_warps) +
                           " (max_warps of an SM in the GPU config), got " + std::to_string(k.warps_per_cta));
  }
}

}  // namespace gpupm
