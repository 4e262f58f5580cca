#include "gpupm/policy/policy_registry.h"
#include "gpupm/policy/core_shutdown/core_shutdown_policy.h"
#include "gpupm/policy/dyncta/dyncta_policy.h"
#include "gpupm/policy/equalizer/equalizer_policy.h"
#include "gpupm/policy/harmonia/harmonia_policy.h"
#include "gpupm/policy/shared/oracle/static_point_policy.h"
#include "gpupm/policy/sm_allocation/sm_allocation_policy.h"
#include "gpupm/policy/static/static_policy.h"

namespace gpupm {

namespace {

std::unique_ptr<Policy> make_static(const PolicyArgs& a) {
  return std::make_unique<StaticPolicy>(a.name, read_policy_settings<StaticSettings>(a.params, a.target()), a.dvfs);
}

std::unique_ptr<Policy> make_equalizer(const PolicyArgs& a) {
  return std::make_unique<EqualizerPolicy>(a.name, read_equalizer_settings(a.params, a.target()));
}

// A policy P made from its settings S alone.
template <class P, class S>
std::unique_ptr<Policy> make_from_settings(const PolicyArgs& a) {
  return std::make_unique<P>(read_policy_settings<S>(a.params, a.target()));
}

std::unique_ptr<Policy> make_static_point(const PolicyArgs& a) {
  const StaticPointSettings s = read_policy_settings<StaticPointSettings>(a.params, a.target());
  return std::make_unique<StaticPointPolicy>(s.point(), a.dvfs);
}

std::unique_ptr<Policy> make_harmonia(const PolicyArgs& a) {
  return std::make_unique<HarmoniaPolicy>(read_harmonia_settings(a.params, a.target()), a.dvfs, a.ctl.sm_count);
}

std::unique_ptr<Policy> make_sm_allocation(const PolicyArgs& a) {
  return make_sm_allocation_policy(a.params, a.target());
}

// The shipped policies, in the order `gpupm policies` and messages list them.
struct ShippedPolicy {
  const char* name;
  const char* summary;
  std::unique_ptr<Policy> (*make)(const PolicyArgs&);
  PolicyParamWalk params;
};
// A function's table, not a namespace-scope one: its std::function members are
// initialised dynamically, and a registration from another object's static
// initialiser may come first (the platform example's does).
const std::vector<ShippedPolicy>& shipped_policies() {
  static const std::vector<ShippedPolicy> shipped = {
      {"baseline", "nominal SM and memory V/F levels, every SM (the reference)", make_static,
       settings_walk<StaticSettings>()},
      {"sm-high", "static: SM domain at its \"high\" level", make_static, settings_walk<StaticSettings>()},
      {"sm-low", "static: SM domain at its \"low\" level", make_static, settings_walk<StaticSettings>()},
      {"mem-high", "static: memory domain at its \"high\" level", make_static, settings_walk<StaticSettings>()},
      {"mem-low", "static: memory domain at its \"low\" level", make_static, settings_walk<StaticSettings>()},
      {"static", "static: policy.sm_level, policy.mem_level, policy.ctas_per_sm", make_static,
       settings_walk<StaticSettings>()},
      {"equalizer-perf", "Equalizer, performance mode: CTA concurrency and V/F from warp states", make_equalizer,
       settings_walk<EqualizerSettings>()},
      {"equalizer-energy", "Equalizer, energy mode", make_equalizer, settings_walk<EqualizerSettings>()},
      {"dyncta", "DynCTA-like CTA concurrency from idle and memory-stall cycles",
       make_from_settings<DynCtaPolicy, DynCtaSettings>, settings_walk<DynCtaSettings>()},
      {"core-shutdown", "memory-bound kernels: bisect the SM count, gate the surplus SMs",
       make_from_settings<CoreShutdownPolicy, KnobSearchSettings>, settings_walk<KnobSearchSettings>()},
      {"core-dvfs", "core shut-down's comparison point: the same search over the SM V/F level",
       make_from_settings<CoreDvfsPolicy, KnobSearchSettings>, settings_walk<KnobSearchSettings>()},
      {"static-point", "one point of the SM count x V/F x CTAs space held for the run (policy.sms, ...)",
       make_static_point, settings_walk<StaticPointSettings>()},
      {"harmonia", "Harmonia: CU count and CU/memory clocks per kernel from its counters", make_harmonia,
       settings_walk<HarmoniaPolicySettings>()},
      {"sm-allocation", "two co-running apps: the paper's split from offline profiles", make_sm_allocation,
       settings_walk<SplitSettings>()},
      {"ilp-smra", "two co-running apps: moves SMs between them by their IPC at run time", make_sm_allocation,
       settings_walk<SmraSettings>()},
      {"aging-power", "two co-running apps: min-time SM count within an IPC-loss margin", make_sm_allocation,
       settings_walk<SplitSettings>()},
      {"perf-aging", "two co-running apps: the fewest SMs within a margin of the best IPC", make_sm_allocation,
       settings_walk<SplitSettings>()},
  };
  return shipped;
}

struct Registry {
  std::vector<PolicyEntry> entries;
  std::vector<std::string> problems;
  std::string origin = "linked in";
  Registry() {
    for (const ShippedPolicy& s : shipped_policies()) entries.push_back({s.name, s.summary, s.make, "", s.params});
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

bool register_policy(const std::string& name, const std::string& summary, PolicyFactory make, PolicyParamWalk params) {
  Registry& r = registry();
  if (const PolicyEntry* e = find_policy(name)) {
    r.problems.push_back("policy \"" + name + "\" of " + r.origin + " is already registered (" +
                         describe_origin(e->origin) + "); expected a name no other policy has");
    return false;
  }
  r.entries.push_back({name, summary, std::move(make), r.origin, std::move(params)});
  return true;
}

const std::vector<PolicyEntry>& registered_policies() { return registry().entries; }

const PolicyEntry* find_registered_policy(const std::string& name) { return find_policy(name); }

const std::vector<std::string>& policy_registration_problems() { return registry().problems; }

void set_registration_origin(const std::string& origin) { registry().origin = origin; }

std::vector<std::string> policy_names() {
  std::vector<std::string> n;
  for (const PolicyEntry& e : registered_policies()) n.push_back(e.name);
  return n;
}

std::string policy_name_list() {
  std::string list;
  for (const std::string& n : policy_names()) list += (list.empty() ? "" : ", ") + n;
  return list;
}

std::unique_ptr<Policy> make_policy(const std::string& name, JsonReader& p, const DvfsConfig& dvfs,
                                    const ControllerSetup& ctl, const std::string& unknown_hint) {
  for (const std::string& problem : policy_registration_problems()) p.fail("name", problem);
  if (const PolicyEntry* e = find_policy(name)) return e->make({name, p, dvfs, ctl});
  p.fail("name", "unknown policy \"" + name + "\"; expected one of {" + policy_name_list() + "}" + unknown_hint);
}

}  // namespace gpupm
