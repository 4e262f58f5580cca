#include "gpupm/workload/workload_params.h"

namespace gpupm {

namespace {

void describe_app(ParamVisitor& v, AppParams& a, Presence kernels) {
  v.text("name", a.name, "the application's name", Presence::kRequired);
  v.text("description", a.description, "free text for people");
  v.integer("iterations", a.iterations, 1, kMaxKernelLaunches, "",
            "runs of the kernels list (iteration i runs launch i of each kernel)");
  v.list("kernels", a.kernels, 1, 4096, kernels, "the kernels, run in order",
         [](ParamVisitor& s, KernelEntryParams& e) { describe(s, e); });
}

// Two co-running applications need two names to tell them apart in the report.
std::optional<ParamProblem> same_app_names(const std::vector<AppParams>& apps) {
  for (size_t i = 1; i < apps.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (apps[i].name == apps[j].name)
        return ParamProblem{"apps[" + std::to_string(i) + "].name",
                            "expected a name different from apps[" + std::to_string(j) + "]'s"};
  return std::nullopt;
}

}  // namespace

void describe(ParamVisitor& v, KernelEntryParams& e) {
  v.integer("repeat", e.repeat, 1, kMaxKernelLaunches, "launches",
            "launches of the kernel (default: one, or one per iteration; not with launches)");
  v.rule("launches_or_repeat", "either launches or repeat, not both", [&v] {
    return problem_unless(!(v.given("launches") && v.given("repeat")), "repeat",
                          "give either launches or repeat, not both");
  });
  v.patched_fields("launches", e.patches, kMaxKernelLaunches, "one launch each: changes to the kernel's fields",
                   [&e](ParamVisitor& s, size_t i) {
                     if (e.launches.size() <= i) e.launches.resize(i + 1);
                     describe_kernel(s, e.launches[i].kernel, e.launches[i].single);
                   });
}

void describe(ParamVisitor& v, ProfileWorkloadParams& w) {
  // First: an empty kernels or apps array beside the other says the more useful thing.
  v.one_of("kernels_or_apps", "either kernels (one application) or apps", {{"kernels"}, {"apps"}}, [&v] {
    if (v.given("kernels") && v.given("apps"))
      return problem_unless(false, "apps", "give either kernels (one application) or apps, not both");
    if (v.given("apps") && v.given("iterations"))
      return problem_unless(false, "iterations", "give iterations per application (apps[i].iterations)");
    return problem_unless(v.given("kernels") || v.given("apps"), "kernels", "missing (required without apps)");
  });
  describe_app(v, w.main, Presence::kOptional);
  v.list("apps", w.apps, 1, 2, Presence::kOptional, "one or two co-running applications on disjoint SM sets",
         [](ParamVisitor& s, AppParams& a) { describe_app(s, a, Presence::kRequired); });
  v.rule("distinct_app_names", "the apps have different names", [&w] { return same_app_names(w.apps); });
  v.flag("respawn", w.respawn, "two apps as a queue pair: a finished app starts again");
  v.rule("respawn_two_apps", "respawn needs two apps", [&w] {
    return problem_unless(!w.respawn || w.apps.size() == 2, "respawn",
                          "re-spawning needs two co-running applications (\"apps\" with 2 entries)");
  });
}

}  // namespace gpupm
