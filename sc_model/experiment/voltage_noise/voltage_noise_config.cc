#include "gpupm/experiment/voltage_noise/voltage_noise.h"

namespace gpupm {

namespace {
const std::vector<std::string> kClasses = {"first_order", "second_order", "balanced", "-"};
}  // namespace

const std::vector<ClaimLimits>& voltage_noise_claim_limits() {
  static const std::vector<ClaimLimits> limits = {{"13a", {"low_min", "low_max", "high_min", "high_max"}},
                                                  {"13b", {}},
                                                  {"12", {"small_droop", "large_droop", "share_min", "share_max"}},
                                                  {"15", {}},
                                                  {"16a", {"reduction_min"}},
                                                  {"16b", {"reduction_min"}},
                                                  {"16c", {"removed_min"}},
                                                  {"17", {"slowdown_max"}},
                                                  {"15b", {}},
                                                  {"20", {"core_min", "processor_min"}},
                                                  {"22", {}},
                                                  {"24", {}},
                                                  {"1-7", {}},
                                                  {"14", {}},
                                                  {"19", {}}};
  return limits;
}

namespace {

void describe_class(ParamVisitor& v, std::string& paper_class) {
  v.choice("class", paper_class, kClasses,
           "the paper's Fig. 6 class of what it stands for (\"-\": the paper gives none); only compared with the "
           "measured one");
}

}  // namespace

void describe(ParamVisitor& v, VoltageNoiseEntryParams& k) {
  describe_entry(v, k, false);
  describe_class(v, k.paper_class);
}

void describe(ParamVisitor& v, VoltageNoiseProgramParams& k) {
  describe_entry(v, k, true);
  describe_class(v, k.paper_class);
}

void describe(ParamVisitor& v, VoltageNoisePackageParams& p) {
  v.text("name", p.name, "the package's name in the summary", Presence::kRequired);
  v.text("pdn", p.pdn, "its PDN package (configs/pdn/*.json, relative to the data root)", Presence::kRequired);
}

void describe(ParamVisitor& v, VoltageNoiseParams& p) {
  describe_suite(v, p.suite, "voltage-noise");
  v.text("pdn", p.pdn, "the default PDN package (relative to the data root)", Presence::kRequired);
  v.number("emergency_margin", p.margin, 0.01, 0.5, "fraction of Vdd",
           "a droop beyond this margin is an emergency (claim 16c)");
  v.json_object("gpu_sets", p.gpu_sets, "GPU config overrides for every run: {PATH: VALUE} as --set gpu.PATH=VALUE");
  v.list("packages", p.packages, 0, 8, Presence::kOptional,
         "the packages baseline and hierarchical also run on (Sec. 6.3)",
         [](ParamVisitor& e, VoltageNoisePackageParams& x) { describe(e, x); });
  describe_entries(v, p.suite, "kernels", p.kernels, "the synthetic suite's kernel profiles", p.programs);
  describe_claims_and_targets(v, p, voltage_noise_claim_limits());
}

VoltageNoiseConfig VoltageNoise::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  const VoltageNoiseParams p = read_experiment_config<VoltageNoiseParams>(opt, shipped_config);
  const SuiteConfig sc = suite_config(opt, shipped_config, p.suite);
  VoltageNoiseConfig c;
  c.real = sc.real;
  c.gpu = sc.gpu;
  c.pdn = source_relative(p.pdn);
  c.margin = p.margin;
  for (const auto& [path, value] : p.gpu_sets.items()) c.gpu_sets.push_back("gpu." + path + "=" + value.dump());
  for (const VoltageNoisePackageParams& x : p.packages) c.packages.push_back({x.name, source_relative(x.pdn)});
  c.claims = ClaimBook(p.claims);
  c.targets = claim_targets(p.targets);
  const std::vector<VoltageNoiseEntryParams> entries =
      c.real ? std::vector<VoltageNoiseEntryParams>(p.programs.begin(), p.programs.end()) : p.kernels;
  for (const SuiteEntry& e : suite_entries_of(opt, sc, entries, "kernels")) {
    VoltageNoiseKernel kernel{e.name, entries[e.index].paper_class, e.file};
    if (c.real) add_checked_program(c.kernels, std::move(kernel), e.wanted, c.gpu, opt.scale);
    else add_checked_app(c.kernels, std::move(kernel), e.wanted);
  }
  return c;
}

}  // namespace gpupm
