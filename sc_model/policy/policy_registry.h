// The policies a run can name (`gpupm run --policy NAME`, a run document's
// "policy": {"name": ...}): the shipped ones, registered from one table in
// policy_registry.cc, and any that code outside the project adds with
// GPUPM_REGISTER_POLICY in its own translation unit, linked into its sc_main
// or built into a plugin that `gpupm ... --plugin FILE` loads
// (policy/policy_plugin.h; docs/embedding.md#writing-a-policy).
#pragma once

#include "gpupm/policy/policy.h"
#include "gpupm/policy/policy_params.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpupm {

// What a factory is given. `params` is the run document's "policy" object
// ("name" already read): read the policy's parameters from it; keys nobody
// read are refused after the factory returns (exit 2, naming the key).
struct PolicyArgs {
  const std::string& name;
  JsonReader& params;
  const DvfsConfig& dvfs;      // the GPU's V/F levels per domain
  const ControllerSetup& ctl;  // SM count, warp slots, controller_impl, the workload's applications
  PolicyTarget target() const { return {name, dvfs, ctl}; }
};
using PolicyFactory = std::function<std::unique_ptr<Policy>(const PolicyArgs&)>;

struct PolicyEntry {
  std::string name;
  std::string summary;  // one line for `gpupm policies`
  PolicyFactory make;
  std::string origin;      // "" shipped; a plugin's file; "linked in" for the program's own code
  PolicyParamWalk params;  // its settings' declaration (`gpupm params --policy NAME`); empty: none declared
};

// Adds a policy; returns whether it was added. A name already taken keeps its
// first policy and the clash is remembered: make_policy then refuses to run
// (a static initialiser has nobody to throw to).
// `params` declares its settings (settings_walk<S>(), policy_params.h) for `gpupm params --policy NAME`.
bool register_policy(const std::string& name, const std::string& summary, PolicyFactory make,
                     PolicyParamWalk params = {});
// Every policy, the shipped ones first, then in registration order.
const std::vector<PolicyEntry>& registered_policies();
// The policy named NAME (nullptr: none).
const PolicyEntry* find_registered_policy(const std::string& name);
// Registration clashes so far, one message each.
const std::vector<std::string>& policy_registration_problems();

// For the plugin loader: what register_policy records as the origin meanwhile.
void set_registration_origin(const std::string& origin);

}  // namespace gpupm

#define GPUPM_POLICY_CONCAT_(a, b) a##b
#define GPUPM_POLICY_CONCAT(a, b) GPUPM_POLICY_CONCAT_(a, b)
// In a .cc file of your own, at namespace scope:
//   GPUPM_REGISTER_POLICY("my-policy", "one line for gpupm policies",
//                         [](const gpupm::PolicyArgs& a) { return std::make_unique<MyPolicy>(a.dvfs); })
// or, with settings declared as gpupm's own policies declare theirs (policy_params.h),
//   GPUPM_REGISTER_POLICY("my-policy", "one line",
//                         [](const gpupm::PolicyArgs& a) {
//                           auto s = gpupm::read_policy_settings<MySettings>(a.params, a.target());
//                           return std::make_unique<MyPolicy>(s);
//                         },
//                         gpupm::settings_walk<MySettings>())
// registers it when the program starts or the plugin is loaded. The line must
// be in an object the linker keeps: a source file of the program itself (not
// of a static library nothing else references), or of the plugin.
#define GPUPM_REGISTER_POLICY(NAME, SUMMARY, ...)                                                                   \
  namespace {                                                                                                       \
  [[maybe_unused]] const bool GPUPM_POLICY_CONCAT(gpupm_policy_registered_,                                         \
                                                  __LINE__) = ::gpupm::register_policy(NAME, SUMMARY, __VA_ARGS__); \
  }
