#include "policy/policy_registry.h"
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

// "static" reads both levels; a named point presets them.
std::unique_ptr<Policy> make_static_point(const PolicyArgs& a) {
  StaticPoint preset = {"static", "", ""};
  for (const auto& s : kStaticPoints)
    if (a.name == s.name) preset = s;
  uint32_t sm_level = level_param(a.params, "sm_level", preset.sm, a.dvfs[Domain::Sm]);
  uint32_t mem_level = level_param(a.params, "mem_level", preset.mem, a.dvfs[Domain::Mem]);
  uint32_t ctas = uint32_t(a.params.get_uint("ctas_per_sm", 0, 64, 0));
  return std::make_unique<StaticPolicy>(a.name, sm_level, mem_level, ctas, a.dvfs);
}

std::unique_ptr<Policy> make_equalizer(const PolicyArgs& a) {
  VfMode mode = a.name == "equalizer-perf" ? VfMode::kPerformance : VfMode::kEnergy;
  return std::make_unique<EqualizerPolicy>(a.name, parse_equalizer_settings(a.params, mode, a.dvfs, a.ctl));
}

std::unique_ptr<Policy> make_dyncta(const PolicyArgs& a) {
  JsonReader& p = a.params;
  DynCtaSettings s;
  s.period = uint32_t(p.get_uint("period", 128, 1u << 24, s.period));
  if (s.period % 128) p.fail("period", "expected a multiple of 128 (the sample period)");
  s.t_idle = uint32_t(p.get_uint("t_idle", 0, 1u << 24, s.t_idle));
  s.t_mem_low = uint32_t(p.get_uint("t_mem_low", 0, 1u << 24, s.t_mem_low));
  s.t_mem_high = uint32_t(p.get_uint("t_mem_high", 0, 1u << 24, s.t_mem_high));
  return std::make_unique<DynCtaPolicy>(s);
}

std::unique_ptr<Policy> make_sm_allocation(const PolicyArgs& a) {
  return make_sm_allocation_policy(a.name, a.params, a.ctl);
}

// The shipped policies, in the order `gpupm policies` and messages list them.
struct ShippedPolicy {
  const char* name;
  const char* summary;
  std::unique_ptr<Policy> (*make)(const PolicyArgs&);
};
const ShippedPolicy kShipped[] = {
    {"baseline", "nominal SM and memory V/F levels, every SM (the reference)", make_static_point},
    {"sm-high", "static: SM domain at its \"high\" level", make_static_point},
    {"sm-low", "static: SM domain at its \"low\" level", make_static_point},
    {"mem-high", "static: memory domain at its \"high\" level", make_static_point},
    {"mem-low", "static: memory domain at its \"low\" level", make_static_point},
    {"static", "static: policy.sm_level, policy.mem_level, policy.ctas_per_sm", make_static_point},
    {"equalizer-perf", "Equalizer, performance mode: CTA concurrency and V/F from warp states", make_equalizer},
    {"equalizer-energy", "Equalizer, energy mode", make_equalizer},
    {"dyncta", "DynCTA-like CTA concurrency from idle and memory-stall cycles", make_dyncta},
    {"core-shutdown", "memory-bound kernels: bisect the SM count, gate the surplus SMs",
     [](const PolicyArgs& a) -> std::unique_ptr<Policy> {
       return std::make_unique<CoreShutdownPolicy>(parse_knob_search_settings(a.params));
     }},
    {"core-dvfs", "core shut-down's comparison point: the same search over the SM V/F level",
     [](const PolicyArgs& a) -> std::unique_ptr<Policy> {
       return std::make_unique<CoreDvfsPolicy>(parse_knob_search_settings(a.params));
     }},
    {"static-point", "one point of the SM count x V/F x CTAs space held for the run (policy.sms, ...)",
     [](const PolicyArgs& a) -> std::unique_ptr<Policy> {
       return std::make_unique<StaticPointPolicy>(parse_config_point(a.params, a.dvfs, a.ctl.sm_count), a.dvfs);
     }},
    {"harmonia", "Harmonia: CU count and CU/memory clocks per kernel from its counters",
     [](const PolicyArgs& a) -> std::unique_ptr<Policy> {
       return std::make_unique<HarmoniaPolicy>(parse_harmonia_settings(a.params, a.dvfs, a.ctl.sm_count), a.dvfs,
                                               a.ctl.sm_count);
     }},
    {"sm-allocation", "two co-running apps: the paper's split from offline profiles", make_sm_allocation},
    {"ilp-smra", "two co-running apps: moves SMs between them by their IPC at run time", make_sm_allocation},
    {"aging-power", "two co-running apps: min-time SM count within an IPC-loss margin", make_sm_allocation},
    {"perf-aging", "two co-running apps: the fewest SMs within a margin of the best IPC", make_sm_allocation},
};

struct Registry {
  std::vector<PolicyEntry> entries;
  std::vector<std::string> problems;
  std::string origin = "linked in";
  Registry() {
    for (const ShippedPolicy& s : kShipped) entries.push_back({s.name, s.summary, s.make, ""});
  }
};

// Built on first use, so a registration from another object's static
// initialiser (whatever the order) finds the shipped table already there.
Registry& registry() {
  static Registry r;
  return r;
}

const PolicyEntry* find_policy(const std::string& name) {
  for (const PolicyEntry& e : registry().entries)
    if (e.name == name) return &e;
  return nullptr;
}

std::string describe_origin(const std::string& origin) { return origin.empty() ? "a shipped policy" : origin; }

}  // namespace

bool register_policy(const std::string& name, const std::string& summary, PolicyFactory make) {
  Registry& r = registry();
  if (const PolicyEntry* e = find_policy(name)) {
    r.problems.push_back("policy \"" + name + "\" of " + r.origin + " is already registered (" +
                         describe_origin(e->origin) + "); expected a name no other policy has");
    return false;
  }
  r.entries.push_back({name, summary, std::move(make), r.origin});
  return true;
}

const std::vector<PolicyEntry>& registered_policies() { return registry().entries; }

const std::vector<std::string>& policy_registration_problems() { return registry().problems; }

void set_registration_origin(const std::string& origin) { registry().origin = origin; }


std::vector<std::string> policy_names() {
  std::vector<std::string> n;
  for (const PolicyEntry& e : registered_policies()) n.push_back(e.name);
  return n;
}

std::unique_ptr<Policy> make_policy(const std::string& name, JsonReader& p, const DvfsConfig& dvfs,
                                    const ControllerSetup& ctl, const std::string& unknown_hint) {
  for (const std::string& problem : policy_registration_problems()) p.fail("name", problem);
  if (const PolicyEntry* e = find_policy(name)) return e->make({name, p, dvfs, ctl});
  std::string list;
  for (const auto& n : policy_names()) list += (list.empty() ? "" : ", ") + n;
  p.fail("name", "unknown policy \"" + name + "\"; expected one of {" + list + "}" + unknown_hint);
}

}  // namespace gpupm
