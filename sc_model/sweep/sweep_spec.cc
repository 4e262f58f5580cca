#include "sweep/sweep_spec.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "common/fnv1a.h"
#include "platform/run_setup.h"

namespace gpupm {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxRuns = 100000;

std::string label_of(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string list_of(const std::vector<std::string>& v, size_t max = 20) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < max; ++i) s += (s.empty() ? "" : ", ") + v[i];
  if (v.size() > max) s += ", ...";
  return "{" + s + "}";
}

// The JSON path of the object a reader reads ("axes[2]").
std::string parent_path(const JsonReader& r) {
  std::string p = r.path_of("");
  return p.empty() ? p : p.substr(0, p.size() - 1);
}

bool valid_name(const std::string& n) {
  if (n.empty() || !(std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_')) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

class Parser {
 public:
  Parser(const Json& doc, std::string file) : doc_(doc), file_(std::move(file)) {
    dir_ = fs::absolute(fs::path(file_)).parent_path();
  }

  SweepSpec parse() {
    SweepSpec s;
    s.file = file_;
    JsonReader top(doc_, file_, "");
    s.name = top.get_string("name", fs::path(file_).stem().string());
    s.description = top.get_string("description", "");
    s.combine = top.get_enum("combine", {"product", "list"}, "product");
    {
      JsonReader b = top.object("base");
      base_gpu_ = path_in(b, "gpu", true);
      base_workload_ = path_in(b, "workload", false);
      base_policy_ = b.get_string("policy", "baseline");
      if (b.has("seed")) base_seed_ = b.get_uint("seed", 0, UINT64_MAX);
      if (b.has("set")) base_sets_ = strings(b, "set");
      b.finish();
    }
    std::set<std::string> names;
    top.for_each("axes", 1, 32, [&](JsonReader& ar, size_t i) {
      SweepAxis a = axis(ar);
      const std::string at = ar.path_of("name");
      const auto& reserved = reserved_result_columns();
      if (std::find(reserved.begin(), reserved.end(), a.name) != reserved.end() || a.name.rfind("residency_", 0) == 0)
        throw InputError(file_, at, "\"" + a.name + "\" is a results.csv column; choose another axis name");
      if (!names.insert(a.name).second) throw InputError(file_, at, "two axes named \"" + a.name + "\"");
      (void)i;
      s.axes.push_back(std::move(a));
    });
    std::vector<std::vector<int>> choices;  // per point: value index per axis (-1: not set)
    if (s.combine == "product") {
      if (top.has("runs")) top.fail("runs", "only read with \"combine\": \"list\" (this spec combines as a product)");
      size_t n = 1;
      for (const auto& a : s.axes) {
        n *= a.values.size();
        if (n > kMaxRuns) top.fail("axes", "the product has more than " + std::to_string(kMaxRuns) + " runs");
      }
      for (size_t k = 0; k < n; ++k) {
        std::vector<int> c(s.axes.size());
        size_t rest = k;
        for (size_t ai = s.axes.size(); ai-- > 0;) {
          c[ai] = int(rest % s.axes[ai].values.size());
          rest /= s.axes[ai].values.size();
        }
        choices.push_back(c);
      }
    } else {
      top.for_each("runs", 1, kMaxRuns, [&](JsonReader& rr, size_t) {
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
          throw InputError(file_, parent_path(rr),
                           "names no axis; expected some of " + list_of(an));
        }
        choices.push_back(c);
      });
    }
    top.finish();

    for (size_t k = 0; k < choices.size(); ++k) s.points.push_back(point(s, choices[k], k));
    return s;
  }

 private:
  // A file path under key, resolved against the spec's folder; must exist.
  std::string path_in(JsonReader& r, const std::string& key, bool required) {
    if (!required && !r.has(key)) return "";
    return resolve(r.get_string(key), r.path_of(key));
  }
  std::string resolve(const std::string& p, const std::string& json_path) {
    fs::path full = fs::path(p).is_absolute() ? fs::path(p) : dir_ / p;
    full = full.lexically_normal();
    if (!fs::is_regular_file(full))
      throw InputError(file_, json_path,
                       "cannot open \"" + p + "\" (" + full.string() + "; relative paths are relative to the spec file)");
    return full.string();
  }
  std::vector<std::string> strings(JsonReader& r, const std::string& key) {
    size_t n = r.array_size(key, 0, 10000);
    const Json& a = r.raw(key);
    std::vector<std::string> v;
    for (size_t i = 0; i < n; ++i) {
      std::string p = r.path_of(key) + "[" + std::to_string(i) + "]";
      if (!a[i].is_string()) throw InputError(file_, p, "expected a string \"path=value\"");
      std::string s = a[i].get<std::string>();
      if (s.find('=') == std::string::npos || s.find('=') == 0)
        throw InputError(file_, p, "expected \"path=value\" (a --set override), got \"" + s + "\"");
      v.push_back(s);
    }
    return v;
  }

  SweepAxis axis(JsonReader& r) {
    SweepAxis a;
    a.name = r.get_string("name");
    if (!valid_name(a.name))
      r.fail("name", "expected a name of letters, digits, '_', '-', '.' starting with a letter or '_', got \"" + a.name + "\"");
    std::vector<std::string> kinds;
    for (const char* k : {"set", "workloads", "policies", "points"})
      if (r.has(k)) kinds.push_back(k);
    if (kinds.size() != 1)
      throw InputError(file_, parent_path(r),
                       "give exactly one of \"set\" (with \"values\"), \"workloads\", \"policies\", \"points\"");
    a.kind = kinds[0];
    if (a.kind == "set") {
      std::string path = r.get_string("set");
      if (path.empty() || path.find('=') != std::string::npos) r.fail("set", "expected a dotted path such as gpu.sm.count");
      size_t n = r.array_size("values", 1, kMaxRuns);
      const Json& vs = r.raw("values");
      for (size_t i = 0; i < n; ++i) {
        if (vs[i].is_null()) throw InputError(file_, r.path_of("values") + "[" + std::to_string(i) + "]", "null is not a value");
        a.values.push_back({label_of(vs[i]), {path + "=" + vs[i].dump()}, "", ""});
      }
    } else if (a.kind == "workloads") {
      size_t n = r.array_size("workloads", 1, kMaxRuns);
      const Json& ws = r.raw("workloads");
      std::map<std::string, int> stems;
      for (size_t i = 0; i < n; ++i) {
        std::string p = r.path_of("workloads") + "[" + std::to_string(i) + "]";
        if (!ws[i].is_string()) throw InputError(file_, p, "expected a workload file path");
        SweepAxisValue v;
        v.workload = resolve(ws[i].get<std::string>(), p);
        v.label = fs::path(v.workload).stem().string();
        ++stems[v.label];
        a.values.push_back(v);
      }
      // Two files with the same name: label them by the path as written.
      for (size_t i = 0; i < n; ++i)
        if (stems[a.values[i].label] > 1) a.values[i].label = ws[i].get<std::string>();
    } else if (a.kind == "policies") {
      size_t n = r.array_size("policies", 1, 1000);
      const Json& ps = r.raw("policies");
      for (size_t i = 0; i < n; ++i) {
        if (!ps[i].is_string())
          throw InputError(file_, r.path_of("policies") + "[" + std::to_string(i) + "]", "expected a policy name");
        a.values.push_back({ps[i].get<std::string>(), {}, "", ps[i].get<std::string>()});
      }
    } else {
      r.for_each("points", 1, kMaxRuns, [&](JsonReader& pr, size_t) {
        SweepAxisValue v;
        v.label = pr.get_string("label");
        if (pr.has("set")) v.sets = strings(pr, "set");
        if (pr.has("workload")) v.workload = path_in(pr, "workload", true);
        v.policy = pr.get_string("policy", "");
        if (v.sets.empty() && v.workload.empty() && v.policy.empty())
          pr.fail("label", "a point needs \"set\", \"workload\" or \"policy\"");
        a.values.push_back(v);
      });
    }
    std::set<std::string> seen;
    for (size_t i = 0; i < a.values.size(); ++i)
      if (!seen.insert(a.values[i].label).second)
        throw InputError(file_, r.path_of(a.kind == "set" ? "values" : a.kind) + "[" + std::to_string(i) + "]",
                         "duplicate value \"" + a.values[i].label + "\" in axis " + a.name);
    return a;
  }

  SweepPoint point(const SweepSpec& s, const std::vector<int>& choice, size_t k) {
    SweepPoint p;
    RunInputs in;
    in.gpu_file = base_gpu_;
    in.workload_file = base_workload_;
    in.policy = base_policy_;
    in.sets = base_sets_;
    in.seed = base_seed_;
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
      LoadedRun run = load_run(in);
      p.id = hex64(fnv1a("gpupm-sweep-run-v1\n" + run.doc.dump()));
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
    return p;
  }

  const Json& doc_;
  std::string file_;
  fs::path dir_;
  std::string base_gpu_, base_workload_, base_policy_;
  std::vector<std::string> base_sets_;
  std::optional<uint64_t> base_seed_;
};

}  // namespace

std::vector<RunSpec> SweepSpec::unique_runs() const {
  std::vector<RunSpec> v;
  std::set<std::string> seen;
  for (const auto& p : points)
    if (seen.insert(p.id).second) v.push_back(p.run);
  return v;
}

namespace {

Json closed_object(Json properties, const std::vector<std::string>& required) {
  Json s = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) s["required"] = required;
  return s;
}

Json described(const char* type, const char* description) { return {{"type", type}, {"description", description}}; }

}  // namespace

Json sweep_spec_schema() {
  const Json sets = {{"type", "array"},
                     {"maxItems", 10000},
                     {"items", {{"type", "string"}, {"pattern", "^[^=]+="}}},
                     {"description", "--set overrides, path=value"}};
  const Json path = described("string", "a file, relative to the spec");
  Json base = closed_object({{"gpu", path},
                             {"workload", path},
                             {"policy", described("string", "policy name (default baseline)")},
                             {"seed", {{"type", "integer"}, {"minimum", 0}, {"maximum", UINT64_MAX}}},
                             {"set", sets}},
                            {"gpu"});
  Json point = closed_object({{"label", described("string", "what results.csv shows")},
                              {"set", sets},
                              {"workload", path},
                              {"policy", described("string", "policy name")}},
                             {"label"});
  auto array_of = [](Json items, size_t max, const char* description) {
    return Json{{"type", "array"}, {"minItems", 1}, {"maxItems", max}, {"items", std::move(items)},
                {"description", description}};
  };
  Json axis = closed_object(
      {{"name", {{"type", "string"}, {"pattern", "^[A-Za-z_][A-Za-z0-9_.-]*$"}, {"description", "results.csv column"}}},
       {"set", described("string", "a dotted --set path such as gpu.sm.count")},
       {"values", array_of({{"not", {{"type", "null"}}}}, kMaxRuns, "values of the set path")},
       {"workloads", array_of(path, kMaxRuns, "workload files")},
       {"policies", array_of(described("string", "policy name"), 1000, "policies")},
       {"points", array_of(point, kMaxRuns, "labelled groups of overrides")}},
      {"name"});
  axis["oneOf"] = Json::array({Json{{"required", {"set", "values"}}}, Json{{"required", Json::array({"workloads"})}},
                               Json{{"required", Json::array({"policies"})}}, Json{{"required", Json::array({"points"})}}});
  Json run = {{"type", "object"}, {"minProperties", 1}, {"description", "axis name -> one of its values (labels)"}};
  return closed_object({{"name", described("string", "default: the spec file's name")},
                        {"description", described("string", "free text for people")},
                        {"combine", {{"enum", {"product", "list"}}, {"default", "product"}}},
                        {"base", base},
                        {"axes", array_of(axis, 32, "the axes")},
                        {"runs", array_of(run, kMaxRuns, "combine list: the points")}},
                       {"base", "axes"});
}

SweepSpec parse_sweep_spec(const Json& doc, const std::string& file) { return Parser(doc, file).parse(); }

SweepSpec load_sweep_spec(const std::string& file) { return parse_sweep_spec(load_json_file(file), file); }

}  // namespace gpupm
