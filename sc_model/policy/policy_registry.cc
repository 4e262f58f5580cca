#include "policy/policy.h"
#include "policy/core_shutdown/core_shutdown_policy.h"
#include "policy/dyncta/dyncta_policy.h"
#include "policy/equalizer/equalizer_policy.h"
#include "policy/harmonia/harmonia_policy.h"
#include "policy/shared/oracle/static_point_policy.h"
#include "policy/sm_allocation/sm_allocation_policy.h"
#include "policy/static/static_policy.h"

namespace gpupm {

namespace {

// Named static points: {name, SM level, memory level}; "" means nominal.
struct StaticPoint {
  const char* name;
  const char* sm;
  const char* mem;
};
constexpr StaticPoint kStaticPoints[] = {
    {"baseline", "", ""}, {"sm-high", "high", ""}, {"sm-low", "low", ""}, {"mem-high", "", "high"}, {"mem-low", "", "low"},
};

uint32_t level_param(JsonReader& p, const char* key, const char* preset, const DomainDvfs& d) {
  std::vector<std::string> names;
  for (const auto& l : d.levels) names.push_back(l.name);
  std::string dflt = *preset ? preset : d.levels[d.nominal].name;
  if (*preset && d.level_index(preset) < 0)
    p.fail(key, std::string("this policy needs a V/F level named \"") + preset + "\" in the GPU config");
  return uint32_t(d.level_index(p.get_enum(key, names, dflt)));
}

}  // namespace

std::vector<std::string> policy_names() {
  std::vector<std::string> n;
  for (const auto& s : kStaticPoints) n.push_back(s.name);
  n.push_back("static");
  n.push_back("equalizer-perf");
  n.push_back("equalizer-energy");
  n.push_back("dyncta");
  n.push_back("core-shutdown");
  n.push_back("core-dvfs");
  n.push_back("static-point");
  n.push_back("harmonia");
  for (const auto& s : sm_allocation_policy_names()) n.push_back(s);
  return n;
}

std::unique_ptr<Policy> make_policy(const std::string& name, JsonReader& p, const DvfsConfig& dvfs,
                                    const ControllerSetup& ctl) {
  for (const auto& s : kStaticPoints) {
    if (name != s.name && name != "static") continue;
    const char* sm = name == "static" ? "" : s.sm;
    const char* mem = name == "static" ? "" : s.mem;
    uint32_t sm_level = level_param(p, "sm_level", sm, dvfs[Domain::Sm]);
    uint32_t mem_level = level_param(p, "mem_level", mem, dvfs[Domain::Mem]);
    uint32_t ctas = uint32_t(p.get_uint("ctas_per_sm", 0, 64, 0));
    return std::make_unique<StaticPolicy>(name, sm_level, mem_level, ctas, dvfs);
  }
  if (name == "equalizer-perf" || name == "equalizer-energy") {
    VfMode mode = name == "equalizer-perf" ? VfMode::kPerformance : VfMode::kEnergy;
    return std::make_unique<EqualizerPolicy>(name, parse_equalizer_settings(p, mode, dvfs, ctl));
  }
  if (name == "dyncta") {
    DynCtaSettings s;
    s.period = uint32_t(p.get_uint("period", 128, 1u << 24, s.period));
    if (s.period % 128) p.fail("period", "expected a multiple of 128 (the sample period)");
    s.t_idle = uint32_t(p.get_uint("t_idle", 0, 1u << 24, s.t_idle));
    s.t_mem_low = uint32_t(p.get_uint("t_mem_low", 0, 1u << 24, s.t_mem_low));
    s.t_mem_high = uint32_t(p.get_uint("t_mem_high", 0, 1u << 24, s.t_mem_high));
    return std::make_unique<DynCtaPolicy>(s);
  }
  if (name == "core-shutdown") return std::make_unique<CoreShutdownPolicy>(parse_knob_search_settings(p));
  if (name == "core-dvfs") return std::make_unique<CoreDvfsPolicy>(parse_knob_search_settings(p));
  if (name == "static-point") return std::make_unique<StaticPointPolicy>(parse_config_point(p, dvfs, ctl.sm_count), dvfs);
  if (name == "harmonia")
    return std::make_unique<HarmoniaPolicy>(parse_harmonia_settings(p, dvfs, ctl.sm_count), dvfs, ctl.sm_count);
  if (auto sm_alloc = make_sm_allocation_policy(name, p, ctl)) return sm_alloc;
  std::string list;
  for (const auto& n : policy_names()) list += (list.empty() ? "" : ", ") + n;
  p.fail("name", "unknown policy \"" + name + "\"; expected one of {" + list + "}");
}

}  // namespace gpupm
