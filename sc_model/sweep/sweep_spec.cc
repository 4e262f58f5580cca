#include "gpupm/sweep/sweep_spec.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "gpupm/common/fnv1a.h"
#include "gpupm/common/param_reader.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/sweep/sweep_spec_params.h"

namespace gpupm {

namespace fs = std::filesystem;

namespace {

std::string label_of(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string list_of(const std::vector<std::string>& v, size_t max = 20) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < max; ++i) s += (s.empty() ? "" : ", ") + v[i];
  if (v.size() > max) s += ", ...";
  return "{" + s + "}";
}

// An axis as the runs use it: each value's label, overrides, workload and policy.
SweepAxis axis_of(const SweepAxisParams& p, const std::string& dir) {
  SweepAxis a;
  a.name = p.name;
  a.kind = p.kind();
  const std::vector<std::string> labels = axis_labels(p);
  for (size_t i = 0; i < labels.size(); ++i) {
    SweepAxisValue v;
    v.label = labels[i];
    if (a.kind == "set") {
      v.sets = {p.set + "=" + p.values[i].dump()};
    } else if (a.kind == "workloads") {
      v.workload = resolve_spec_path(dir, p.workloads[i]);
    } else if (a.kind == "policies") {
      v.policy = p.policies[i];
    } else {
      const SweepPointParams& point = p.points[i];
      v.sets = point.sets;
      if (!point.workload.empty()) v.workload = resolve_spec_path(dir, point.workload);
      v.policy = point.policy;
    }
    a.values.push_back(std::move(v));
  }
  return a;
}

class Parser {
 public:
  Parser(const Json& doc, std::string file, std::string scale)
      : doc_(doc), file_(std::move(file)), scale_(std::move(scale)) {
    params_.dir = fs::absolute(fs::path(file_)).parent_path().string();
    params_.name = fs::path(file_).stem().string();
  }

  SweepSpec parse() {
    JsonReader top(doc_, file_, "");
    read_params(top, params_);
    top.finish();
    SweepSpec s;
    s.file = file_;
    s.name = params_.name;
    s.description = params_.description;
    s.combine = params_.combine;
    for (const SweepAxisParams& a : params_.axes) s.axes.push_back(axis_of(a, params_.dir));
    const std::vector<std::vector<int>> choices = s.combine == "product" ? product(s) : listed(s);
    for (size_t k = 0; k < choices.size(); ++k) s.points.push_back(point(s, choices[k], k));
    return s;
  }

 private:
  // Per point: the value index of each axis, the first axis outermost.
  static std::vector<std::vector<int>> product(const SweepSpec& s) {
    size_t n = 1;
    for (const auto& a : s.axes) n *= a.values.size();
    std::vector<std::vector<int>> choices;
    for (size_t k = 0; k < n; ++k) {
      std::vector<int> c(s.axes.size());
      size_t rest = k;
      for (size_t ai = s.axes.size(); ai-- > 0;) {
        c[ai] = int(rest % s.axes[ai].values.size());
        rest /= s.axes[ai].values.size();
      }
      choices.push_back(c);
    }
    return choices;
  }

  // Per listed run: the value index of each axis it names (-1: not named).
  std::vector<std::vector<int>> listed(const SweepSpec& s) const {
    std::vector<std::vector<int>> choices;
    for (size_t k = 0; k < params_.runs.size(); ++k) {
      JsonReader rr(params_.runs[k], file_, "runs[" + std::to_string(k) + "]");
      std::vector<int> c(s.axes.size(), -1);
      bool any = false;
      for (size_t ai = 0; ai < s.axes.size(); ++ai) {
        const SweepAxis& a = s.axes[ai];
        if (!rr.has(a.name)) continue;
        std::string want = label_of(rr.raw(a.name));
        std::vector<std::string> labels;
        for (size_t vi = 0; vi < a.values.size(); ++vi) {
          labels.push_back(a.values[vi].label);
          if (a.values[vi].label == want) c[ai] = int(vi);
        }
        if (c[ai] < 0)
          rr.fail(a.name, "\"" + want + "\" is not a value of axis " + a.name + "; expected one of " + list_of(labels));
        any = true;
      }
      rr.finish();  // unknown keys: not an axis
      if (!any) {
        std::vector<std::string> an;
        for (const auto& a : s.axes) an.push_back(a.name);
        throw InputError(file_, rr.path(), "names no axis; expected some of " + list_of(an));
      }
      choices.push_back(c);
    }
    return choices;
  }

  SweepPoint point(const SweepSpec& s, const std::vector<int>& choice, size_t k) {
    SweepPoint p;
    RunInputs in;
    const SweepBaseParams& base = params_.base;
    in.gpu_file = resolve_spec_path(params_.dir, base.gpu);
    if (!base.workload.empty()) in.workload_file = resolve_spec_path(params_.dir, base.workload);
    in.policy = base.policy;
    in.sets = base.sets;
    in.scale = scale_;
    if (base.seed_given) in.seed = base.seed;
    std::string desc;
    for (size_t ai = 0; ai < s.axes.size(); ++ai) {
      if (choice[ai] < 0) {
        p.labels.push_back("");
        continue;
      }
      const SweepAxisValue& v = s.axes[ai].values[size_t(choice[ai])];
      p.labels.push_back(v.label);
      desc += (desc.empty() ? "" : ", ") + s.axes[ai].name + "=" + v.label;
      in.sets.insert(in.sets.end(), v.sets.begin(), v.sets.end());
      if (!v.workload.empty()) in.workload_file = v.workload;
      if (!v.policy.empty()) in.policy = v.policy;
    }
    std::string where = s.combine == "list" ? "runs[" + std::to_string(k) + "]" : "axes";
    if (in.workload_file.empty())
      throw InputError(file_, "base.workload", "missing (required unless an axis gives every run a workload)");
    try {
      LoadedRun run = load_standalone_run(in);
      p.id =
          hex64(fnv1a("gpupm-sweep-run-v1\n" + run.doc.dump() + (run.scale.is_null() ? "" : "\n" + run.scale.dump())));
    } catch (const std::exception& e) {
      throw InputError(file_, where, "the run {" + desc + "} is not valid: " + e.what());
    }
    p.run.id = p.id;
    p.run.fingerprint = p.id;
    p.run.args = {"--gpu", in.gpu_file, "--workload", in.workload_file, "--policy", in.policy};
    for (const auto& set : in.sets) {
      p.run.args.push_back("--set");
      p.run.args.push_back(set);
    }
    if (in.seed) {
      p.run.args.push_back("--seed");
      p.run.args.push_back(std::to_string(*in.seed));
    }
    if (in.scale != "ci") p.run.args.insert(p.run.args.end(), {"--scale", in.scale});
    return p;
  }

  const Json& doc_;
  std::string file_;
  std::string scale_;
  SweepSpecParams params_;
};

}  // namespace

std::vector<RunSpec> SweepSpec::unique_runs() const {
  std::vector<RunSpec> v;
  std::set<std::string> seen;
  for (const auto& p : points)
    if (seen.insert(p.id).second) v.push_back(p.run);
  return v;
}

SweepSpec parse_sweep_spec(const Json& doc, const std::string& file, const std::string& scale) {
  return Parser(doc, file, scale).parse();
}

SweepSpec load_sweep_spec(const std::string& file, const std::string& scale) {
  return parse_sweep_spec(load_json_file(file), file, scale);
}

}  // namespace gpupm
