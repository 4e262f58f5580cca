#include "experiment/voltage_noise/voltage_noise.h"

namespace gpupm {

namespace {
const std::vector<std::string> kClasses = {"first_order", "second_order", "balanced", "-"};
}  // namespace

const std::vector<ClaimLimits>& voltage_noise_claim_limits() {
  static const std::vector<ClaimLimits> limits = {
      {"13a", {"low_min", "low_max", "high_min", "high_max"}},
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

VoltageNoiseConfig VoltageNoise::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  VoltageNoiseConfig c;
  c.real = is_real_suite(opt, shipped_config);
  SuiteConfig sc = read_suite_config(
      opt, shipped_config, "kernels",
      [&](JsonReader& r) {
        c.gpu = source_relative(r.get_string("gpu"));
        c.pdn = source_relative(r.get_string("pdn"));
        c.margin = r.get_double("emergency_margin", 0.01, 0.5, 0.08);
        if (r.has("gpu_sets")) {
          const Json& s = r.raw("gpu_sets");
          if (!s.is_object()) r.fail("gpu_sets", "expected an object of GPU config paths and their values");
          for (const auto& [path, value] : s.items()) c.gpu_sets.push_back("gpu." + path + "=" + value.dump());
        }
        r.for_each("packages", 0, 8, [&](JsonReader& p, size_t) {
          c.packages.push_back({p.get_string("name"), source_relative(p.get_string("pdn"))});
        });
        c.claims = ClaimBook::read(r, shipped_config, voltage_noise_claim_limits());
        c.targets = read_claim_targets(r, shipped_config, voltage_noise_claim_limits());
      },
      [&](JsonReader& k, const std::string& name, const std::string& workload, bool wanted) {
        VoltageNoiseKernel kernel{name, k.get_enum("class", kClasses, "-"), workload};
        if (c.real) return add_checked_program(c.kernels, std::move(kernel), wanted, c.gpu, opt.scale);
        add_checked_app(c.kernels, std::move(kernel), wanted);
      });
  c.gpu = sc.gpu;
  return c;
}

}  // namespace gpupm
