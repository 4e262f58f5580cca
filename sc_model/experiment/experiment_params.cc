#include "gpupm/experiment/experiment_params.h"

#include <set>

namespace gpupm {

void describe_suite(ParamVisitor& v, SuiteParams& s, const char* experiment) {
  v.choice("name", s.name, {experiment}, "the experiment (gpupm experiment NAME)", Presence::kRequired);
  v.text("description", s.description, "what the experiment does, in a sentence");
  v.choice("suite", s.suite, suite_names(),
           "synthetic: kernel profiles; real: CUDA programs (configs/workloads/cuda/README.md)");
  v.text("gpu", s.gpu, "GPU config of every run (a path relative to the data root, or absolute)", Presence::kRequired);
  v.text("suite_dir", s.suite_dir, "folder of the suite's workloads (relative to the data root, or absolute)",
         Presence::kRequired);
}

void describe_entry(ParamVisitor& v, EntryParams& e, bool program) {
  v.text_matching("name", e.name, kFileNamePattern, kFileNameAllowed,
                  program ? "the program: SUITE_DIR/NAME/NAME.json" : "the profile: SUITE_DIR/NAME.json",
                  Presence::kRequired);
  if (program) v.text("suite_dir", e.suite_dir, "the folder holding this program when not the config's suite_dir");
}

void check_suite_lists(ParamVisitor& v, const SuiteParams& s, const char* key) {
  const std::string own = s.suite == "real" ? "programs" : key, other = s.suite == "real" ? key : "programs";
  v.rule("suite_lists", "the synthetic suite lists its entries under its key, a real suite under programs",
         [&v, &s, own, other] {
           if (!v.given(own)) return problem_unless(false, own, "missing (required)");
           return problem_unless(!v.given(other), other,
                                 "not in a " + s.suite + " suite's config (its entries are \"" + own + "\")");
         });
}

void real_suite_only(ParamVisitor& v, const SuiteParams& s, const char* key) {
  const std::string k = key;
  v.rule((k + "_of_real_suite").c_str(), (k + " is given in a real suite's config, and only there").c_str(),
         [&v, &s, k] {
           if (s.suite == "real") return problem_unless(v.given(k), k, "missing (required in a real suite's config)");
           return problem_unless(!v.given(k), k,
                                 "only a real suite's config has \"" + k + "\" (this is of the " + s.suite + " suite)");
         });
}

void describe_claims_and_targets(ParamVisitor& v, ExperimentParamsBase<>& p, const std::vector<ClaimLimits>& expected) {
  describe_claims(v, p.claims, expected);
  describe_targets(v, p.targets, expected);
  p.claims_given = v.given("claims");
  p.targets_given = v.given("targets");
}

const char* const kPolicyParamsHelp = "policy.* settings for every run (gpupm params --policy NAME lists them)";

std::vector<std::string> policy_sets(const Json& params) {
  std::vector<std::string> v;
  for (auto it = params.begin(); it != params.end(); ++it) {
    v.push_back("--set");
    v.push_back("policy." + it.key() + "=" + it.value().dump());
  }
  return v;
}

SuiteConfig suite_config(const ExperimentOptions& opt, const std::string& shipped_config, const SuiteParams& s) {
  SuiteConfig c;
  c.file = experiment_config_file(opt, shipped_config);
  if (!opt.suite.empty() && opt.suite != s.suite)
    throw InputError(c.file, "suite", "this config is of the " + s.suite + " suite, but --suite asks for " + opt.suite);
  c.real = s.suite == "real";
  c.gpu = source_relative(s.gpu);
  c.suite = source_relative(s.suite_dir);
  return c;
}

std::vector<SuiteEntry> suite_entries(const ExperimentOptions& opt, const SuiteConfig& c,
                                      const std::vector<EntryParams>& entries, const std::string& key) {
  const std::set<std::string> only(opt.only.begin(), opt.only.end());
  std::set<std::string> seen;
  std::vector<SuiteEntry> out;
  for (size_t i = 0; i < entries.size(); ++i) {
    const EntryParams& e = entries[i];
    seen.insert(e.name);
    const std::string dir = c.real && !e.suite_dir.empty() ? source_relative(e.suite_dir) : c.suite;
    out.push_back({e.name, dir + "/" + e.name + (c.real ? "/" + e.name : "") + ".json",
                   only.empty() || only.count(e.name) > 0, i});
  }
  const std::string list = c.real ? "programs" : key;
  for (const std::string& name : opt.only)
    if (!seen.count(name)) throw InputError(c.file, list, "no entry named \"" + name + "\" (from --only)");
  return out;
}

}  // namespace gpupm
