#include "gpupm/sweep/sweep_spec_params.h"

#include "gpupm/sweep/sweep_results.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace gpupm {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOverride = "^[^=]+=";
constexpr const char* kOverrideWords = "\"path=value\" (a --set override)";
constexpr const char* kPathHelp = "a file, relative to the spec";

std::string element(const std::string& name, size_t i) { return name + "[" + std::to_string(i) + "]"; }

// A file the spec names must exist (key: where it is named).
std::optional<ParamProblem> missing_file(const std::string& dir, const std::string& path, const std::string& key) {
  if (path.empty()) return std::nullopt;
  const std::string full = resolve_spec_path(dir, path);
  return problem_unless(fs::is_regular_file(full), key,
                        "cannot open \"" + path + "\" (" + full + "; relative paths are relative to the spec file)");
}

void describe(ParamVisitor& v, SweepBaseParams& b, const std::string& dir) {
  v.text("gpu", b.gpu, "GPU config: a file, relative to the spec", Presence::kRequired);
  v.rule("gpu_exists", "gpu names an existing file", [&] { return missing_file(dir, b.gpu, "gpu"); });
  v.text("workload", b.workload, "workload file (required unless an axis gives every run one)");
  v.rule("workload_exists", "workload names an existing file",
         [&] { return missing_file(dir, b.workload, "workload"); });
  v.text("policy", b.policy, "policy name");
  v.integer("seed", b.seed, 0, UINT64_MAX, "", "random seed of every run (default: the GPU config's)");
  b.seed_given = v.given("seed");  // the reader knows; listings and schemas leave it false
  v.text_list("set", b.sets, 0, 10000, kOverride, kOverrideWords, "--set overrides applied to every run");
}

void describe(ParamVisitor& v, SweepPointParams& p, const std::string& dir) {
  v.text("label", p.label, "what results.csv shows", Presence::kRequired);
  v.text_list("set", p.sets, 0, 10000, kOverride, kOverrideWords, "--set overrides");
  v.text("workload", p.workload, kPathHelp);
  v.rule("workload_exists", "workload names an existing file",
         [&] { return missing_file(dir, p.workload, "workload"); });
  v.text("policy", p.policy, "policy name");
  v.rule("changes_something", "a point gives set, workload or policy", [&p] {
    return problem_unless(!p.sets.empty() || !p.workload.empty() || !p.policy.empty(), "label",
                          "a point needs \"set\", \"workload\" or \"policy\"");
  });
}

// Two values of an axis with one label: the second is named.
std::optional<ParamProblem> duplicate_label(const SweepAxisParams& a) {
  const std::vector<std::string> labels = axis_labels(a);
  std::set<std::string> seen;
  for (size_t i = 0; i < labels.size(); ++i)
    if (!seen.insert(labels[i]).second)
      return ParamProblem{element(a.kind() == "set" ? "values" : a.kind(), i),
                          "duplicate value \"" + labels[i] + "\" in axis " + a.name};
  return std::nullopt;
}

void describe(ParamVisitor& v, SweepAxisParams& a, const std::string& dir) {
  v.text_matching("name", a.name, "^[A-Za-z_][A-Za-z0-9_.-]*$",
                  "a name of letters, digits, '_', '-', '.' starting with a letter or '_'", "results.csv column",
                  Presence::kRequired);
  v.one_of("one_kind", "exactly one of set (with values), workloads, policies, points",
           {{"set", "values"}, {"workloads"}, {"policies"}, {"points"}}, [&v] {
             int kinds = 0;
             for (const char* k : {"set", "workloads", "policies", "points"}) kinds += v.given(k);
             return problem_unless(
                 kinds == 1 && v.given("set") == v.given("values"), "",
                 "give exactly one of \"set\" (with \"values\"), \"workloads\", \"policies\", \"points\"");
           });
  v.text_matching("set", a.set, "^[^=]+$", "a dotted path such as gpu.sm.count", "the --set path the values go to");
  v.json_list("values", a.values, 1, kMaxSweepRuns, JsonItems::kValues, "values of the set path");
  v.text_list("workloads", a.workloads, 1, kMaxSweepRuns, "", "a workload file path", "workload files");
  v.rule("workloads_exist", "every workload names an existing file", [&] {
    for (size_t i = 0; i < a.workloads.size(); ++i)
      if (auto p = missing_file(dir, a.workloads[i], element("workloads", i))) return p;
    return std::optional<ParamProblem>();
  });
  v.text_list("policies", a.policies, 1, 1000, "", "a policy name", "policies");
  v.list("points", a.points, 1, kMaxSweepRuns, Presence::kOptional, "labelled groups of overrides",
         [&dir](ParamVisitor& s, SweepPointParams& p) { describe(s, p, dir); });
  v.rule("distinct_values", "no two values of an axis share a label", [&a] { return duplicate_label(a); });
}

// Axis names are results.csv columns: not a reserved one, not twice.
std::optional<ParamProblem> bad_axis_name(const std::vector<SweepAxisParams>& axes) {
  const auto& reserved = reserved_result_columns();
  std::set<std::string> names;
  for (size_t i = 0; i < axes.size(); ++i) {
    const std::string& n = axes[i].name;
    const std::string at = element("axes", i) + ".name";
    if (std::find(reserved.begin(), reserved.end(), n) != reserved.end() || n.rfind("residency_", 0) == 0)
      return ParamProblem{at, "\"" + n + "\" is a results.csv column; choose another axis name"};
    if (!names.insert(n).second) return ParamProblem{at, "two axes named \"" + n + "\""};
  }
  return std::nullopt;
}

std::optional<ParamProblem> product_too_large(const std::vector<SweepAxisParams>& axes) {
  size_t n = 1;
  for (const auto& a : axes) {
    n *= axis_labels(a).size();
    if (n > kMaxSweepRuns)
      return ParamProblem{"axes", "the product has more than " + std::to_string(kMaxSweepRuns) + " runs"};
  }
  return std::nullopt;
}

}  // namespace

std::string SweepAxisParams::kind() const {
  if (!workloads.empty()) return "workloads";
  if (!policies.empty()) return "policies";
  if (!points.empty()) return "points";
  return "set";
}

std::string resolve_spec_path(const std::string& dir, const std::string& path) {
  fs::path full = fs::path(path).is_absolute() ? fs::path(path) : fs::path(dir) / path;
  return full.lexically_normal().string();
}

std::vector<std::string> axis_labels(const SweepAxisParams& a) {
  std::vector<std::string> labels;
  for (const Json& v : a.values) labels.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  std::map<std::string, int> stems;
  for (const std::string& w : a.workloads) ++stems[fs::path(w).lexically_normal().stem().string()];
  for (const std::string& w : a.workloads) {
    const std::string stem = fs::path(w).lexically_normal().stem().string();
    labels.push_back(stems[stem] > 1 ? w : stem);  // two files with one name: the path as written
  }
  labels.insert(labels.end(), a.policies.begin(), a.policies.end());
  for (const SweepPointParams& p : a.points) labels.push_back(p.label);
  return labels;
}

void describe(ParamVisitor& v, SweepSpecParams& s) {
  v.text("name", s.name, "the sweep's name (default: the spec file's name)");
  v.text("description", s.description, "free text for people");
  v.choice("combine", s.combine, {"product", "list"}, "every combination of the axes' values, or the listed runs");
  v.section("base", Presence::kRequired, "what every run starts from",
            [&](ParamVisitor& b) { describe(b, s.base, s.dir); });
  v.list("axes", s.axes, 1, 32, Presence::kRequired, "the axes",
         [&s](ParamVisitor& a, SweepAxisParams& axis) { describe(a, axis, s.dir); });
  v.rule("axis_names", "axis names are distinct and not results.csv columns", [&s] { return bad_axis_name(s.axes); });
  v.json_list("runs", s.runs, 1, kMaxSweepRuns, JsonItems::kObjects,
              "combine list: the runs, each axis name -> one of its values (an axis left out keeps the base)");
  v.rule("runs_with_list", "runs are given exactly when combine is list", [&] {
    if (s.combine == "product")
      return problem_unless(!v.given("runs"), "runs",
                            "only read with \"combine\": \"list\" (this spec combines as a product)");
    return problem_unless(!s.runs.empty(), "runs", "missing (required with \"combine\": \"list\")");
  });
  v.rule("product_size", "a product of at most 100000 runs",
         [&s] { return s.combine == "product" ? product_too_large(s.axes) : std::nullopt; });
}

}  // namespace gpupm
