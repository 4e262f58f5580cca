// The parts every experiment config shares, declared once (common/param.h) for
// the reader, `gpupm params --experiment NAME` and docs/schema/experiment.schema.json:
// name, description, suite, gpu, suite_dir, the entries (a synthetic suite's
// "kernels"/"apps", a real suite's "programs"), the paper's claims and the
// headline targets. Each experiment's Params struct (e.g. equalizer.h) holds
// these beside its own keys; its load() reads that struct and builds its Config.
#pragma once

#include "gpupm/common/param.h"
#include "gpupm/common/param_reader.h"
#include "gpupm/experiment/claims.h"
#include "gpupm/experiment/runner.h"

#include <string>
#include <vector>

namespace gpupm {

struct SuiteParams {
  std::string name, description, suite = "synthetic", gpu, suite_dir;
};
// "name" may only be EXPERIMENT (the schema tells the five experiments apart by it).
void describe_suite(ParamVisitor& v, SuiteParams& s, const char* experiment);

// An entry of the suite: a synthetic suite's profile SUITE_DIR/NAME.json or a
// real suite's program SUITE_DIR/NAME/NAME.json, SUITE_DIR being the entry's own
// "suite_dir" when it gives one (a program of another suite, shared rather than copied).
struct EntryParams {
  std::string name, suite_dir;
};
// name, and for a program (real suite) suite_dir.
void describe_entry(ParamVisitor& v, EntryParams& e, bool program);

// The synthetic suite's entries under KEY (items K) and a real suite's under
// "programs" (items P), each K and P with a describe(v, item); a rule that the
// config's suite gives its own list and not the other.
void check_suite_lists(ParamVisitor& v, const SuiteParams& s, const char* key);
template <class K, class P>
void describe_entries(ParamVisitor& v, const SuiteParams& s, const char* key, std::vector<K>& synthetic,
                      const char* description, std::vector<P>& programs) {
  v.list(key, synthetic, 1, 1000, Presence::kOptional, description, [](ParamVisitor& e, K& k) { describe(e, k); });
  v.list("programs", programs, 1, 1000, Presence::kOptional, "a real suite's CUDA programs (SUITE_DIR/NAME/NAME.json)",
         [](ParamVisitor& e, P& p) { describe(e, p); });
  check_suite_lists(v, s, key);
}

// A rule that KEY is given in a real suite's config and only there.
void real_suite_only(ParamVisitor& v, const SuiteParams& s, const char* key);

// What every experiment's Params struct holds: the suite, the claims and the
// targets (TARGETS: Equalizer's are an object of its own), and whether the config gave them.
template <class Targets = std::vector<TargetParams>>
struct ExperimentParamsBase {
  SuiteParams suite;
  std::vector<ClaimParams> claims;
  Targets targets;
  bool claims_given = false, targets_given = false;
};
// "claims" and "targets" (describe_claims, describe_targets), noting whether they are given.
void describe_claims_and_targets(ParamVisitor& v, ExperimentParamsBase<>& p, const std::vector<ClaimLimits>& expected);

// The description of every policy_params: the settings each run passes as policy.*.
extern const char* const kPolicyParamsHelp;
// {"k": v, ...} as `gpupm run` arguments: --set policy.k=v ...
std::vector<std::string> policy_sets(const Json& params);

// DOC (from ORIGIN, for messages) read into S by its declaration (unknown keys are errors).
template <class S>
S read_experiment_params(const Json& doc, const std::string& origin) {
  JsonReader r(doc, origin, "");
  S s;
  read_params(r, s);
  r.finish();
  return s;
}
// The same of the config FILE.
template <class S>
S read_experiment_params(const std::string& file) {
  return read_experiment_params<S>(load_json_file(file), file);
}

// The config experiment_config_file names, read into P; its claims and targets
// those of SHIPPED_CONFIG when it states none (a config of one's own suite).
template <class P>
P read_experiment_config(const ExperimentOptions& opt, const std::string& shipped_config) {
  P p = read_experiment_params<P>(experiment_config_file(opt, shipped_config));
  if (!p.claims_given || !p.targets_given) {
    const P shipped = read_experiment_params<P>(shipped_config);
    if (!p.claims_given) p.claims = shipped.claims;
    if (!p.targets_given) p.targets = shipped.targets;
  }
  return p;
}

// The entries a config lists (its suite's list), each with its workload file.
struct SuiteEntry {
  std::string name, file;
  bool wanted = true;  // false for those --only leaves out
  size_t index = 0;    // in the config's list
};
// The common part: --suite agreeing with the config's, paths resolved
// (source_relative), and every --only name an entry's. Bad input throws InputError.
SuiteConfig suite_config(const ExperimentOptions& opt, const std::string& shipped_config, const SuiteParams& s);
std::vector<SuiteEntry> suite_entries(const ExperimentOptions& opt, const SuiteConfig& c,
                                      const std::vector<EntryParams>& entries, const std::string& key);
template <class E>
std::vector<SuiteEntry> suite_entries_of(const ExperimentOptions& opt, const SuiteConfig& c,
                                         const std::vector<E>& entries, const std::string& key) {
  return suite_entries(opt, c, std::vector<EntryParams>(entries.begin(), entries.end()), key);
}

}  // namespace gpupm
