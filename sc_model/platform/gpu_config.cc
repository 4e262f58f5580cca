#include "gpupm/platform/gpu_config.h"

#include "gpupm/common/data_dir.h"
#include "gpupm/common/param_reader.h"
#include "gpupm/controllers/droop_predictor_controller.h"
#include "gpupm/controllers/stagger_unit_controller.h"

#include <filesystem>

namespace gpupm {

namespace {

// Where the blocks run as RTL, a Verilated build must match their parameters.
std::optional<ParamProblem> rtl_blocks_available(const GpuConfig& g) {
  std::string why;
  if (g.controller_impl == ControllerImpl::kCpp) return std::nullopt;
  if (g.smoothing.local.enabled && !droop_pred_rtl_available({uint8_t(g.sm.schedulers)}, &why))
    return ParamProblem{"smoothing.local.enabled", why};
  if (g.smoothing.global.enabled &&
      !stagger_rtl_available({uint8_t(g.sm.count), g.smoothing.global.report_period, g.smoothing.global.window_slots},
                             &why))
    return ParamProblem{"smoothing.global.enabled", why};
  return std::nullopt;
}

}  // namespace

void describe(ParamVisitor& v, SimConfig& c) {
  v.integer("epoch_cycles", c.epoch_cycles, 1, 1u << 30, "SM cycles", "per report epoch (and epochs.csv row)");
  v.integer("sample_period", c.sample_period, 1, 1u << 30, "SM cycles", "between warp-state samples");
  v.integer("seed", c.seed, 0, ~uint64_t(0) >> 1, "", "random seed (gpupm run --seed overrides it)");
  v.number("max_sim_ms", c.max_sim_ms, 1e-6, 1e9, "ms", "simulated-time guard: a run past it fails");
  v.integer("max_warp_insts", c.runaway.max_warp_insts, 1, ~uint64_t(0), "warp instructions",
            "program workloads: one warp executing more is a runaway loop (the run fails)");
  v.integer("warp_insts_per_grid_warp", c.runaway.warp_insts_per_grid_warp, 1, ~uint64_t(0), "warp instructions",
            "program workloads: a launch may execute this many per warp of its grid (and at least max_warp_insts); "
            "more is a runaway (the run fails)");
}

void describe(ParamVisitor& v, GpuConfig& g) {
  v.text("name", g.name, "the config's name", Presence::kRequired);
  v.text("description", g.description, "free text for people");
  v.choice_of("controller_impl", g.controller_impl, controller_impl_names(),
              "controller blocks as the C++ models, the Verilated RTL, or both in lockstep");
  v.section("sm", Presence::kRequired, "streaming multiprocessors", [&](ParamVisitor& s) { describe(s, g.sm); });
  v.section("memory", Presence::kRequired, "interconnect, L2, memory controllers and DRAM",
            [&](ParamVisitor& s) { describe(s, g.mem); });
  v.section("dvfs", Presence::kRequired, "V/F levels of the two clock domains",
            [&](ParamVisitor& s) { describe(s, g.dvfs); });
  v.section("power", Presence::kRequired, "activity-based power model", [&](ParamVisitor& s) { describe(s, g.power); });
  v.section("gwde", Presence::kOptional, "global work distribution engine",
            [&](ParamVisitor& s) { describe(s, g.gwde); });
  v.section("sim", Presence::kOptional, "simulation control", [&](ParamVisitor& s) { describe(s, g.sim); });
  v.section("pdn", Presence::kOptional, "power-delivery network and droop statistics (default: ideal)",
            [&](ParamVisitor& s) { describe(s, g.pdn); });
  v.section("smoothing", Presence::kOptional, "hierarchical voltage smoothing (default: off)",
            [&](ParamVisitor& s) { describe(s, g.smoothing, g.sm.count, g.sm.schedulers); });
  v.rule("rtl_blocks_available", "controller blocks run as RTL only where a Verilated build has their parameters",
         [&g] { return rtl_blocks_available(g); });
  // One SM request is one line: a memory line of another size would only fail at run time.
  v.rule("one_line_size", "memory.line_bytes equals sm.line_bytes", [&g] {
    return problem_unless(g.mem.line_bytes == g.sm.line_bytes, "memory.line_bytes",
                          "expected " + std::to_string(g.sm.line_bytes) + " (equal to sm.line_bytes), got " +
                              std::to_string(g.mem.line_bytes));
  });
  v.rule("sms_on_pdn_grid", "an RLC network's grid holds every SM on a tile of its own",
         [&g] { return pdn_grid_problem(g.pdn, g.sm.count); });
}

GpuConfig parse_gpu_config(const Json& doc, const std::string& file) {
  if (doc.is_object() && doc.contains("based_on"))
    throw InputError(file, "based_on",
                     "a config based on another is read from its file (gpupm::read_gpu_document or "
                     "gpupm::load_gpu_config, platform/gpu_config.h), which merges the config it names");
  GpuConfig g;
  JsonReader r(doc, file, "");
  read_params(r, g);
  r.finish();
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

namespace {

constexpr size_t kMaxBasedOnChain = 8;

// A null in a based-on config would delete the key from what it is based on
// (a JSON merge patch): refused, so a typo cannot silently bring a default back.
void refuse_nulls(const Json& j, const std::string& file, const std::string& path) {
  if (j.is_null())
    throw InputError(file, path,
                     "null is not a setting: give the value, or leave the key out to keep the based-on config's");
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it)
      refuse_nulls(it.value(), file, path.empty() ? it.key() : path + "." + it.key());
}

// The config `file` is based on: `name` if absolute; else, first found, in `file`'s folder, under the data
// root, from the working directory. The data root comes before the working directory, so a shipped config
// finds the base shipped beside it even when run from a folder that holds another checkout's configs/.
std::string based_on_file(const std::string& file, const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::path(name).is_absolute()) return name;
  for (const fs::path& candidate : {fs::path(file).parent_path() / name, fs::path(data_file(name)), fs::path(name)})
    if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
  return name;
}

// `file`'s document with what it is based on merged under it; appends each file read to `files`.
Json read_based_on(const std::string& file, std::vector<std::string>& files) {
  Json doc = load_json_file(file);
  files.push_back(file);
  if (!doc.is_object() || !doc.contains("based_on")) return doc;
  const Json& named = doc.at("based_on");
  if (!named.is_string() || named.get<std::string>().empty())
    throw InputError(file, "based_on",
                     "expected the file name of a GPU config (found in this file's folder, under the data root or "
                     "from the working directory)");
  if (!doc.contains("name"))
    throw InputError(file, "name", "a config based on another names itself: expected \"name\"");
  const std::string base = based_on_file(file, named.get<std::string>());
  std::error_code ec;
  if (!std::filesystem::is_regular_file(base, ec))
    throw InputError(file, "based_on", "no file " + base + ": expected the file name of a GPU config");
  for (const std::string& seen : files)
    if (std::filesystem::equivalent(seen, base, ec))
      throw InputError(file, "based_on",
                       base + " is already in the chain of based-on configs: expected a chain that ends");
  if (files.size() >= kMaxBasedOnChain)
    throw InputError(file, "based_on",
                     "more than " + std::to_string(kMaxBasedOnChain) + " configs in the chain: expected at most that");
  Json merged = read_based_on(base, files);
  if (!merged.is_object()) throw InputError(base, "$", "expected a JSON object (a GPU config)");
  doc.erase("based_on");
  refuse_nulls(doc, file, "");
  merged.merge_patch(doc);
  return merged;
}

}  // namespace

GpuDocument read_gpu_document(const std::string& file) {
  GpuDocument d;
  d.doc = read_based_on(file, d.files);
  return d;
}

std::string GpuDocument::origin() const {
  std::string origin = files.front();
  for (size_t i = 1; i < files.size(); ++i) origin += (i == 1 ? " (based on " : ", on ") + files[i];
  return files.size() > 1 ? origin + ")" : origin;
}

GpuConfig load_gpu_config(const std::string& file) {
  const InputFileScope scope(file);
  const GpuDocument d = read_gpu_document(file);
  return parse_gpu_config(d.doc, d.origin());
}

}  // namespace gpupm
