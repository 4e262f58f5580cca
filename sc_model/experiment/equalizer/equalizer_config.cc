#include "experiment/equalizer/equalizer.h"

#include "workload/kernel_profile.h"

#include <algorithm>

namespace gpupm {

namespace {

const std::vector<std::string> kCategories = {"compute", "memory", "cache", "unsaturated"};

// Each target's key and the name of its limit ("" for none).
const std::vector<std::pair<std::string, std::string>> kTargets = {
    {"perf_speedup", "min"}, {"perf_energy", "max"},  {"perf_vs_static", ""},
    {"energy_saving", "max"}, {"energy_perf", "min"}, {"energy_vs_static_best", ""}};

}  // namespace

std::map<std::string, EqualizerTarget> read_equalizer_targets(JsonReader& config, const std::string& shipped_config) {
  if (!config.has("targets")) {
    const Json shipped = load_json_file(shipped_config);
    JsonReader r(shipped, shipped_config, "");
    return read_equalizer_targets(r, shipped_config);
  }
  std::map<std::string, EqualizerTarget> targets;
  JsonReader all = config.object("targets");
  for (const auto& [key, limit] : kTargets) {
    JsonReader t = all.object(key);
    targets[key].text = t.get_string("target");
    if (!limit.empty()) targets[key].limit = t.get_double(limit, 0.0, 10.0);
    t.finish();
  }
  all.finish();
  return targets;
}

const std::vector<ClaimLimits>& equalizer_claim_limits() {
  static const std::vector<ClaimLimits> limits = {
    {"S1", {"compute_min", "others_max"}}, {"S2", {}}, {"S3", {"compute_within", "others_min"}},
    {"S4", {"compute_within"}}, {"S5", {"off_max_factor", "plateau_factor"}}, {"S6", {"counts_min", "gain_min"}},
    {"C1", {}}, {"C2", {"x_mem_min"}}, {"C3", {"x_mem_max", "waiting_over_active_min"}}, {"C4", {}},
    {"P1", {"perf_min", "perf_max"}}, {"P2", {"perf_min", "perf_max"}}, {"P3", {"kmn_min"}}, {"P4", {}},
    {"P5", {"sm_high_min"}}, {"P6", {"mem_high_max", "perf_max"}}, {"P7", {}},
    {"E1", {"perf_min", "energy_max"}}, {"E2", {"perf_min", "energy_max"}}, {"E3", {"perf_min", "energy_max"}},
    {"E4", {"perf_min", "energy_max"}}, {"E5", {}}, {"D1", {}}, {"D2", {}}, {"D3", {}}, {"D4", {}}, {"D5", {}},
      {"D6", {"ratio_max", "ctas_margin"}}, {"D7", {"ratio_min"}}};
  return limits;
}

namespace {

// The CTA counts the sweep and Equalizer use for a kernel of W_CTA warps (Table III: 8 CTAs, 48 warps).
uint32_t sweep_ctas(uint32_t occupancy, uint32_t w_cta) { return std::min({occupancy, 8u, 48u / w_cta}); }

EqualizerKernel profile_kernel(JsonReader& kr, const std::string& name, const std::string& profile, bool wanted) {
  EqualizerKernel k;
  k.name = name;
  k.category = kr.get_enum("category", kCategories, "compute");
  k.fraction = kr.get_double("kernel_fraction", 0.0, 1.0, 0.0);
  k.file = profile;
  if (!wanted) return k;
  Workload w = parse_workload(load_json_file(k.file), k.file, 1);
  const KernelLaunch& l = *w.launches.front();
  k.w_cta = l.warps_per_cta;
  k.max_ctas = sweep_ctas(l.max_ctas_per_sm, l.warps_per_cta);
  k.launches = uint32_t(w.launches.size());
  return k;
}

// A program of the real suite: no category (it is measured), its kernels' shapes read as `gpupm run` would.
EqualizerKernel program_kernel(const std::string& gpu, const std::string& name, const std::string& program,
                               const std::string& scale) {
  EqualizerKernel p;
  p.name = name;
  p.file = program;
  for (const ProgramLaunch& l : check_program(gpu, program, scale)) {
    p.launches += l.repeat;
    auto same = [&](const EqualizerProgramKernel& k) { return k.kernel == l.kernel; };
    auto it = std::find_if(p.program_kernels.begin(), p.program_kernels.end(), same);
    if (it == p.program_kernels.end())
      it = p.program_kernels.insert(it, {l.kernel, l.warps_per_cta, sweep_ctas(l.max_ctas_per_sm, l.warps_per_cta), {}});
    p.w_cta = std::max(p.w_cta, it->w_cta);
    p.max_ctas = std::max(p.max_ctas, it->max_ctas);
  }
  return p;
}

// The program entry's "paper_kernels": {"<its kernel>": "<Table II id>"}.
void read_paper_kernels(JsonReader& entry, EqualizerKernel& program) {
  if (!entry.has("paper_kernels")) return;
  JsonReader ids = entry.object("paper_kernels");
  std::string names;
  for (EqualizerProgramKernel& k : program.program_kernels) {
    names += (names.empty() ? "" : ", ") + k.kernel;
    k.paper_id = ids.get_string(k.kernel, "");
  }
  for (auto it = entry.raw("paper_kernels").begin(); it != entry.raw("paper_kernels").end(); ++it)
    if (!it.value().is_string() || std::none_of(program.program_kernels.begin(), program.program_kernels.end(),
                                                [&](const EqualizerProgramKernel& k) { return k.kernel == it.key(); }))
      ids.fail(it.key(), "expected a kernel of the program mapped to a Table II id (kernels: " + names + ")");
  ids.finish();
}

EqualizerClassification read_classification(JsonReader& config) {
  EqualizerClassification c;
  JsonReader r = config.object("classification");
  c.kernel_share_min = r.get_double("kernel_share_min", 0.0, 1.0);
  c.cache_gain_min = r.get_double("cache_gain_min", 1.0, 10.0);
  r.finish();
  return c;
}

}  // namespace

EqualizerConfig Equalizer::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  EqualizerConfig c;
  c.real = is_real_suite(opt, shipped_config);
  SuiteConfig sc = read_suite_config(
      opt, shipped_config, "kernels",
      [&](JsonReader& r) {
        c.claims = ClaimBook::read(r, shipped_config, equalizer_claim_limits());
        c.targets = read_equalizer_targets(r, shipped_config);
        if (c.real) c.classification = read_classification(r);
        c.gpu = source_relative(r.get_string("gpu"));
      },
      [&](JsonReader& kr, const std::string& name, const std::string& workload, bool wanted) {
        if (!c.real) {
          EqualizerKernel k = profile_kernel(kr, name, workload, wanted);
          if (wanted) c.kernels.push_back(k);
        } else if (wanted) {
          c.kernels.push_back(program_kernel(c.gpu, name, workload, opt.scale));
          read_paper_kernels(kr, c.kernels.back());
        } else if (kr.has("paper_kernels")) {
          kr.raw("paper_kernels");  // checked when --only wants the program
        }
      });
  c.gpu = sc.gpu;
  return c;
}

}  // namespace gpupm
