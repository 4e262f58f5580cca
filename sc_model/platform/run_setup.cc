#include "gpupm/platform/run_setup.h"
#include "gpupm/common/json_reader.h"
#include "gpupm/policy/policy_registry.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/program/program_workload.h"
#include "gpupm/program/workload_scale.h"

namespace gpupm {

GpuDocument load_gpu_doc(const std::string& gpu_file, const std::string& pdn_file) {
  GpuDocument d = read_gpu_document(gpu_file);
  if (!pdn_file.empty()) {  // before --set, so --set gpu.pdn.network.* refines it
    d.doc["pdn"]["model"] = "rlc";
    d.doc["pdn"]["network"] = load_json_file(pdn_file);
  }
  return d;
}

std::string gpu_doc_origin(const GpuDocument& gpu, const std::string& pdn_file, bool with_sets) {
  const std::string origin = gpu.origin();
  return (pdn_file.empty() ? origin : origin + " + --pdn " + pdn_file) + (with_sets ? " (with --set)" : "");
}

namespace {

// How messages name a run's policy: the gpupm program's options, or the
// RunInputs of a program embedding gpupm, which adds policies of its own.
struct PolicyWording {
  const char* origin;
  const char* unknown_hint;
};
const PolicyWording kProgramWording{"--policy/--set", ""};
const PolicyWording kEmbeddedWording{
    "gpupm::RunInputs (policy, sets)",
    "; a program embedding gpupm registers its own with GPUPM_REGISTER_POLICY in one of its source files "
    "(docs/embedding.md#registering-a-policy-gpupm_register_policy)"};

// The inputs with each named file located (common/data_dir.h): shipped configs
// are found by their configs/... names outside a source checkout too.
RunInputs located(RunInputs in) {
  for (std::string* file : {&in.gpu_file, &in.workload_file, &in.pdn_file}) *file = locate_input_file(*file);
  return in;
}

LoadedRun load_run_worded(const RunInputs& given, const PolicyWording& wording) {
  const RunInputs in = located(given);
  LoadedRun r;
  const GpuDocument gpu_doc = load_gpu_doc(in.gpu_file, in.pdn_file);
  r.gpu_files = gpu_doc.files;
  const ScaledWorkload scaled = load_workload_at_scale(in.workload_file, in.scale);
  r.doc = {{"gpu", gpu_doc.doc}, {"workload", scaled.doc}, {"policy", {{"name", in.policy}}}};
  r.scale = scaled.record;
  for (const std::string& s : in.sets) apply_override(r.doc, s, "--set");
  for (auto it = r.doc.begin(); it != r.doc.end(); ++it)
    if (it.key() != "gpu" && it.key() != "workload" && it.key() != "policy" && it.key() != "seed")
      throw InputError("--set", it.key(), "unknown key of the run document; allowed: gpu, workload, policy, seed");
  // Files named in messages: an override is reported against --set.
  r.gpu_origin = gpu_doc_origin(gpu_doc, in.pdn_file, !in.sets.empty());
  const std::string& gpu_origin = r.gpu_origin;
  const std::string wl_origin = in.sets.empty() ? scaled.origin : scaled.origin + " (with --set)";
  const InputFileScope gpu_file_scope(in.gpu_file);
  r.gpu = parse_gpu_config(r.doc.at("gpu"), gpu_origin);
  if (in.seed) r.gpu.sim.seed = *in.seed;
  if (r.doc.contains("seed")) {
    const Json& s = r.doc.at("seed");
    if (!s.is_number_unsigned()) throw InputError("--set", "seed", "expected a non-negative integer");
    r.gpu.sim.seed = s.get<uint64_t>();
  }
  r.doc["seed"] = r.gpu.sim.seed;
  if (is_program_workload(r.doc.at("workload")))
    r.workload = load_program_workload(r.doc.at("workload"), in.workload_file, wl_origin, r.gpu.sm, r.gpu.sim.runaway,
                                       scaled.inputs_dir);
  else r.workload = parse_workload(r.doc.at("workload"), wl_origin, r.gpu.sim.seed);
  validate_workload(r.workload, r.gpu, wl_origin);
  const Json& pdoc = r.doc.at("policy");
  JsonReader p(pdoc, wording.origin, "policy");
  std::string name = p.get_string("name");
  std::vector<std::string> app_names;
  for (const Application& a : r.workload.apps) app_names.push_back(a.name);
  r.policy = make_policy(name, p, r.gpu.dvfs,
                         {r.gpu.controller_impl, r.gpu.sm.count, r.gpu.sm.max_warps, gpu_origin, app_names},
                         wording.unknown_hint);
  p.finish();
  if (r.workload.apps.size() > 1 && !r.policy->handles_concurrent_apps())
    throw InputError(wl_origin, "apps",
                     "two co-running applications need a policy that handles them; \"" + name +
                         "\" runs one application at a time (baseline and the static policies handle them)");
  r.doc["policy"] = r.policy->describe();
  for (auto it = pdoc.begin(); it != pdoc.end(); ++it)
    if (!r.doc["policy"].contains(it.key())) r.doc["policy"][it.key()] = it.value();
  return r;
}

}  // namespace

PolicyGpu load_policy_gpu(const std::string& gpu_file, const std::string& pdn_file) {
  const InputFileScope gpu_file_scope(gpu_file);
  PolicyGpu g;
  const GpuDocument doc = load_gpu_doc(gpu_file, pdn_file);
  g.gpu = parse_gpu_config(doc.doc, gpu_doc_origin(doc, pdn_file, false));
  g.ctl = {g.gpu.controller_impl, g.gpu.sm.count, g.gpu.sm.max_warps, gpu_file, {}};
  return g;
}

void check_policy_settings(const Json& settings, const std::string& policy, const PolicyGpu& on,
                           const std::string& file, const std::string& path, const Json& given_by_caller) {
  const PolicyEntry* entry = find_registered_policy(policy);
  if (!entry || !entry->params) return;  // what a policy does not declare, its factory checks at run time
  Json doc = given_by_caller;
  doc.update(settings);
  JsonReader r(doc, file, path);
  JsonParamReader reader(r);
  entry->params(on.target(policy), {&reader});
  r.finish();
}

LoadedRun load_run(const RunInputs& in) { return load_run_worded(in, kEmbeddedWording); }

LoadedRun load_standalone_run(const RunInputs& in) {
  LoadedRun r = load_run_worded(in, kProgramWording);
  if (r.gpu.mem.external)
    throw InputError(r.gpu_origin, "memory.system",
                     "\"external\" is for a SystemC platform that embeds gpupm::Gpu and binds its own memory to "
                     "Gpu::mem_out() (docs/embedding.md#external-memory); the gpupm program has no memory to bind "
                     "there: expected \"internal\"");
  return r;
}

std::string validate_file(const std::string& file, const std::string& scale) {
  Json doc = load_json_file(file);
  if (!doc.is_object())
    throw InputError(
        file, "$",
        "expected a JSON object (a GPU config, a workload, a PDN package, a sweep spec or an experiment config)");
  if (is_program_workload(doc) && scale != "ci") {
    const ScaledWorkload w = load_workload_at_scale(file, scale);
    load_program_workload(w.doc, file, w.origin, SmConfig(), {}, w.inputs_dir);
    return "program workload, " + scale + " scale: inputs " + w.record.at("inputs").get<std::string>();
  }
  if (is_program_workload(doc)) {
    load_program_workload(doc, file, file, SmConfig());
    return "program workload";
  }
  if ((doc.contains("kernels") || doc.contains("apps")) && scale != "ci")
    load_workload_at_scale(file, scale);  // refused
  if (doc.contains("kernels") || doc.contains("apps")) {
    parse_workload(doc, file, 1);
    return "workload";
  }
  if (doc.contains("sm") || doc.contains("based_on")) {
    load_gpu_config(file);
    return "gpu";
  }
  if (doc.contains("bump_l_h") || doc.contains("package") || doc.contains("scale")) {  // configs/pdn/*.json
    JsonReader r(doc, file, "");
    parse_pdn_network(r);
    r.finish();
    return "pdn package";
  }
  throw InputError(
      file, "$",
      "not a GPU config (needs \"sm\" or \"based_on\"), a workload (needs \"kernels\", \"apps\" or \"program\"), a PDN "
      "package (needs \"package\", \"bump_l_h\" or \"scale\"), a sweep spec (needs \"base\" and \"axes\") "
      "nor an experiment config (needs \"suite_dir\")");
}

}  // namespace gpupm
