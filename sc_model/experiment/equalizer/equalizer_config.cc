#include "gpupm/experiment/equalizer/equalizer.h"

#include "gpupm/workload/kernel_profile.h"

#include <algorithm>

namespace gpupm {

namespace {

const std::vector<std::string> kCategories = {"compute", "memory", "cache", "unsaturated"};

// Each target's key and the name of its limit ("" for none).
const std::vector<std::pair<std::string, std::string>> kTargets = {
    {"perf_speedup", "min"},  {"perf_energy", "max"}, {"perf_vs_static", ""},
    {"energy_saving", "max"}, {"energy_perf", "min"}, {"energy_vs_static_best", ""}};

}  // namespace

namespace {

void describe_equalizer_targets(ParamVisitor& v, std::map<std::string, EqualizerTarget>& targets) {
  v.section("targets", Presence::kOptional,
            "the issue's targets for the whole suite (absent: the shipped synthetic config's)", [&](ParamVisitor& all) {
              for (const auto& key_limit : kTargets) {
                const std::string& limit = key_limit.second;
                EqualizerTarget& t = targets[key_limit.first];
                all.section(key_limit.first.c_str(), Presence::kRequired, "one target", [&](ParamVisitor& tv) {
                  tv.text("target", t.text, "the target, in words", Presence::kRequired);
                  if (!limit.empty())
                    tv.number(limit.c_str(), t.limit, 0.0, 10.0, "ratio to the baseline", "the target's limit",
                              Presence::kRequired);
                });
              }
            });
}

}  // namespace

const std::vector<ClaimLimits>& equalizer_claim_limits() {
  static const std::vector<ClaimLimits> limits = {{"S1", {"compute_min", "others_max"}},
                                                  {"S2", {}},
                                                  {"S3", {"compute_within", "others_min"}},
                                                  {"S4", {"compute_within"}},
                                                  {"S5", {"off_max_factor", "plateau_factor"}},
                                                  {"S6", {"counts_min", "gain_min"}},
                                                  {"C1", {}},
                                                  {"C2", {"x_mem_min"}},
                                                  {"C3", {"x_mem_max", "waiting_over_active_min"}},
                                                  {"C4", {}},
                                                  {"P1", {"perf_min", "perf_max"}},
                                                  {"P2", {"perf_min", "perf_max"}},
                                                  {"P3", {"kmn_min"}},
                                                  {"P4", {}},
                                                  {"P5", {"sm_high_min"}},
                                                  {"P6", {"mem_high_max", "perf_max"}},
                                                  {"P7", {}},
                                                  {"E1", {"perf_min", "energy_max"}},
                                                  {"E2", {"perf_min", "energy_max"}},
                                                  {"E3", {"perf_min", "energy_max"}},
                                                  {"E4", {"perf_min", "energy_max"}},
                                                  {"E5", {}},
                                                  {"D1", {}},
                                                  {"D2", {}},
                                                  {"D3", {}},
                                                  {"D4", {}},
                                                  {"D5", {}},
                                                  {"D6", {"ratio_max", "ctas_margin"}},
                                                  {"D7", {"ratio_min"}}};
  return limits;
}

namespace {

// The CTA counts the sweep and Equalizer use for a kernel of W_CTA warps (Table III: 8 CTAs, 48 warps).
uint32_t sweep_ctas(uint32_t occupancy, uint32_t w_cta) { return std::min({occupancy, 8u, 48u / w_cta}); }

EqualizerKernel profile_kernel(const EqualizerKernelParams& kp, const std::string& profile) {
  EqualizerKernel k;
  k.name = kp.name;
  k.category = kp.category;
  k.fraction = kp.fraction;
  k.file = profile;
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
      it =
          p.program_kernels.insert(it, {l.kernel, l.warps_per_cta, sweep_ctas(l.max_ctas_per_sm, l.warps_per_cta), {}});
    p.w_cta = std::max(p.w_cta, it->w_cta);
    p.max_ctas = std::max(p.max_ctas, it->max_ctas);
  }
  return p;
}

// The program's "paper_kernels" ({"<its kernel>": "<Table II id>"}): each a kernel of the program.
void take_paper_kernels(const Json& ids, EqualizerKernel& program, const std::string& file, const std::string& path) {
  std::string names;
  for (EqualizerProgramKernel& k : program.program_kernels) {
    names += (names.empty() ? "" : ", ") + k.kernel;
    if (ids.contains(k.kernel) && ids[k.kernel].is_string()) k.paper_id = ids[k.kernel].get<std::string>();
  }
  for (auto it = ids.begin(); it != ids.end(); ++it)
    if (!it.value().is_string() || std::none_of(program.program_kernels.begin(), program.program_kernels.end(),
                                                [&](const EqualizerProgramKernel& k) { return k.kernel == it.key(); }))
      throw InputError(file, path + "." + it.key(),
                       "expected a kernel of the program mapped to a Table II id (kernels: " + names + ")");
}

}  // namespace

void describe(ParamVisitor& v, EqualizerKernelParams& k) {
  describe_entry(v, k, false);
  v.choice("category", k.category, kCategories, "Table II's category; only groups results");
  v.number("kernel_fraction", k.fraction, 0.0, 1.0, "", "its share of its application's time (Table II)");
}

void describe(ParamVisitor& v, EqualizerProgramParams& p) {
  describe_entry(v, p, true);
  v.json_object("paper_kernels", p.paper_kernels,
                "which of its kernels stands for which Table II kernel: {\"<its kernel>\": \"<Table II id>\"}");
}

void describe(ParamVisitor& v, EqualizerParams& p) {
  describe_suite(v, p.suite, "equalizer");
  v.section("classification", Presence::kOptional,
            "a real suite's rules picking and classifying kernels "
            "(equalizer_real.h)",
            [&](ParamVisitor& r) {
              r.number("kernel_share_min", p.classification.kernel_share_min, 0.0, 1.0, "",
                       "kernels below this share of their program's baseline time are left out", Presence::kRequired);
              r.number("cache_gain_min", p.classification.cache_gain_min, 1.0, 10.0, "x",
                       "a memory kernel is cache-sensitive when its best CTA count beats the maximum by this much",
                       Presence::kRequired);
            });
  real_suite_only(v, p.suite, "classification");
  describe_entries(v, p.suite, "kernels", p.kernels, "the synthetic suite's kernels (profiles)", p.programs);
  describe_claims(v, p.claims, equalizer_claim_limits());
  describe_equalizer_targets(v, p.targets);
  p.claims_given = v.given("claims");
  p.targets_given = v.given("targets");
}

EqualizerConfig Equalizer::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  const EqualizerParams p = read_experiment_config<EqualizerParams>(opt, shipped_config);
  const SuiteConfig sc = suite_config(opt, shipped_config, p.suite);
  EqualizerConfig c;
  c.real = sc.real;
  c.gpu = sc.gpu;
  c.claims = ClaimBook(p.claims);
  c.targets = p.targets;
  if (!c.real) {
    for (const SuiteEntry& e : suite_entries_of(opt, sc, p.kernels, "kernels"))
      if (e.wanted) c.kernels.push_back(profile_kernel(p.kernels[e.index], e.file));
    return c;
  }
  c.classification = p.classification;
  for (const SuiteEntry& e : suite_entries_of(opt, sc, p.programs, "kernels")) {
    if (!e.wanted) continue;
    c.kernels.push_back(program_kernel(c.gpu, e.name, e.file, opt.scale));
    take_paper_kernels(p.programs[e.index].paper_kernels, c.kernels.back(), sc.file,
                       "programs[" + std::to_string(e.index) + "].paper_kernels");
  }
  return c;
}

}  // namespace gpupm
