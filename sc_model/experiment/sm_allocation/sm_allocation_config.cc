#include "gpupm/experiment/sm_allocation/sm_allocation.h"
#include "gpupm/common/data_dir.h"

#include "gpupm/platform/gpu_config.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/program/workload_scale.h"

#include <algorithm>
#include <optional>
#include <set>

namespace gpupm {

const char kSequential[] = "sequential";

const std::vector<PolicyRun>& sm_allocation_policies() {
  static const std::vector<PolicyRun> policies = {
      {"baseline", "baseline", false, false, true},   {"sm-allocation", "sm-allocation", true, true, true},
      {"ilp-smra", "ilp-smra", true, false, true},    {"aging-power", "aging-power", false, true, true},
      {"perf-aging", "perf-aging", true, true, true}, {"sm-allocation-fcfs", "sm-allocation", false, true, false},
  };
  return policies;
}

const std::vector<ClaimLimits>& sm_allocation_claim_limits() {
  static const std::vector<ClaimLimits> limits = {{"C1a", {"throughput_min", "throughput_max"}},
                                                  {"C1b", {"efficiency_min", "efficiency_max"}},
                                                  {"C1c", {}},
                                                  {"C1d", {}},
                                                  {"C2", {}},
                                                  {"C3", {}},
                                                  {"C3b", {}},
                                                  {"C3c", {"of_nine_min"}},
                                                  {"C4a", {}},
                                                  {"C4b", {}},
                                                  {"C4c", {"of_nine_min", "of_nine_max"}},
                                                  {"C4d", {"of_nine_min"}},
                                                  {"C5", {}},
                                                  {"C6", {"efficiency_min", "efficiency_max", "of_nine_min"}}};
  return limits;
}

namespace {

// The policies policy_params may set, each once.
std::vector<std::string> settable_policies() {
  std::vector<std::string> names;
  for (const PolicyRun& p : sm_allocation_policies())
    if (std::find(names.begin(), names.end(), p.policy) == names.end()) names.push_back(p.policy);
  return names;
}

// A queue's apps: an even number (>= 2) of entries' names, none more than half of it, no pair of one.
std::optional<ParamProblem> queue_problem(const SmAllocationQueue& q, const std::set<std::string>& names) {
  const std::vector<std::string>& a = q.apps;
  if (a.size() < 2 || a.size() % 2) return ParamProblem{"apps", "expected an even number (>= 2) of application names"};
  std::map<std::string, size_t> count;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!names.count(a[i]))
      return ParamProblem{"apps", "element " + std::to_string(i) +
                                      ": expected the name of an entry of \"apps\" (of \"programs\" in a real suite)"};
    if (++count[a[i]] > a.size() / 2)
      return ParamProblem{"apps", "\"" + a[i] + "\" fills more than half the queue (an app never pairs with itself)"};
  }
  for (size_t i = 0; i + 1 < a.size(); i += 2)  // first come, first served pairs
    if (a[i] == a[i + 1])
      return ParamProblem{"apps", "elements " + std::to_string(i) + " and " + std::to_string(i + 1) +
                                      " are the same application (first come, first served would pair it with itself)"};
  return std::nullopt;
}

// Every queue against the suite's entries (apps, or a real suite's programs); an app listed twice.
std::optional<ParamProblem> queues_problem(const SmAllocationParams& p) {
  std::set<std::string> names;
  for (size_t i = 0; i < p.apps.size(); ++i)
    if (!names.insert(p.apps[i].name).second)
      return ParamProblem{"apps[" + std::to_string(i) + "].name", "\"" + p.apps[i].name + "\" is listed twice"};
  if (p.suite.suite == "real")
    for (const SmAllocationProgramParams& x : p.programs) names.insert(x.name);
  std::set<std::string> queue_names;
  for (size_t i = 0; i < p.queues.size(); ++i) {
    if (!queue_names.insert(p.queues[i].name).second)
      return ParamProblem{"queues[" + std::to_string(i) + "].name", "\"" + p.queues[i].name + "\" is listed twice"};
    if (p.queues[i].to_build()) continue;
    if (auto q = queue_problem(p.queues[i], names))
      return ParamProblem{"queues[" + std::to_string(i) + "]." + q->key, q->what};
  }
  return std::nullopt;
}

// The pairing tries every perfect matching of a queue, (n - 1)!! of them: 135,135 at 14.
constexpr size_t kMaxQueue = 14;

void describe_queue(ParamVisitor& v, SmAllocationQueue& q) {
  v.text("name", q.name, "the queue's name (--only names it in the synthetic suite)", Presence::kRequired);
  v.text("kind", q.kind, "what the queue is made of, in words (a built queue says it when absent)");
  v.text_list("apps", q.apps, 0, kMaxQueue, "", "an entry's name",
              "the arrival order: an even number of entries' names (pairs first come, first served)");
  v.text_matching("oriented", q.oriented, "^(A|M|C|MC)$", "one of A, M, C, MC",
                  "build it from the measured classes: ceil(60%) of `length` from this class, the rest from the "
                  "others in turn");
  v.flag("equal", q.equal,
         "true: build it from the measured classes, two applications of every class measured (a class of one gives "
         "it twice)");
  v.integer("random_seed", q.random_seed, 1, 0xffffffffu, "",
            "build it as a random mix: `length` applications drawn from all with this seed");
  v.integer("length", q.length, 2, kMaxQueue, "applications", "the length of an oriented or random queue (even)");
  v.one_of("one_form", "exactly one of apps, oriented, equal, random_seed",
           {{"apps"}, {"oriented"}, {"equal"}, {"random_seed"}}, [&v] {
             int n = v.given("apps") + v.given("oriented") + v.given("equal") + v.given("random_seed");
             return problem_unless(
                 n == 1, "apps",
                 "expected exactly one of apps, oriented, equal, random_seed (" + std::to_string(n) + " given)");
           });
  v.rule("equal_true", "equal: only true", [&v, &q] {
    return problem_unless(!v.given("equal") || q.equal, "equal",
                          "expected true (a queue with two applications of every class); leave it out otherwise");
  });
  v.rule("even_length", "length: even, and only for an oriented or random queue", [&v, &q] {
    if (!v.given("length")) return std::optional<ParamProblem>();
    if (!v.given("oriented") && !v.given("random_seed"))
      return problem_unless(false, "length", "only an oriented or random queue has a length");
    return problem_unless(q.length % 2 == 0, "length", "expected an even number (the queue runs as pairs)");
  });
}

}  // namespace

void describe(ParamVisitor& v, SmAllocationProgramParams& a) {
  describe_entry(v, a, true);
  v.text_list("paper_args", a.paper_args, 1, 64, "", "a generator argument",
              "at --scale paper, the program's generator arguments in this experiment (its own cuts), in place of its "
              "workload's scales.paper.args, whose program (the first) they keep; ignored at ci (the committed "
              "inputs). The workload must declare a paper scale");
}

void describe(ParamVisitor& v, SmAllocationParams& p) {
  describe_suite(v, p.suite, "sm-allocation");
  v.text_matching(
      "pascal_gpu", p.pascal_gpu, ".", "a path",
      "a second GPU config (the paper's Pascal column, claim C6): every profile and pair runs on it too, the queues "
      "built from the first GPU's profiles (a path relative to the data root, or absolute)");
  v.json_object("class_thresholds", p.class_thresholds,
                "the thresholds classifying an application from its all-SM profile run (sm_profiles.h)");
  v.section("policy_params", Presence::kOptional, "policy.* settings of each policy's runs", [&](ParamVisitor& pp) {
    for (const std::string& name : settable_policies())
      pp.json_object(name.c_str(), p.policy_params[name], kPolicyParamsHelp);
  });
  v.list("apps", p.apps, 2, 1000, Presence::kOptional, "the synthetic suite's applications (kernel profiles)",
         [](ParamVisitor& a, SmAllocationAppParams& x) {
           a.text_matching("name", x.name, kFileNamePattern, kFileNameAllowed, "the profile: SUITE_DIR/NAME.json",
                           Presence::kRequired);
           a.choice("class", x.cls, {"A", "M", "C", "MC"},
                    "the class it was written for; only compared with the measured one");
         });
  v.list("programs", p.programs, 1, 1000, Presence::kOptional,
         "a real suite's CUDA programs (SUITE_DIR/NAME/NAME.json)",
         [](ParamVisitor& e, SmAllocationProgramParams& x) { describe(e, x); });
  check_suite_lists(v, p.suite, "apps");
  v.list("queues", p.queues, 1, 1000, Presence::kRequired, "the queues, each run as first come, first served pairs",
         [](ParamVisitor& q, SmAllocationQueue& x) { describe_queue(q, x); });
  v.rule("queues_of_entries",
         "every written queue names the suite's entries, an even number, none more than half of it",
         [&p] { return queues_problem(p); });
  describe_claims_and_targets(v, p, sm_allocation_claim_limits());
}

namespace {

ClassThresholds class_thresholds_of(const SmAllocationParams& p, const std::string& file) {
  const Json doc = {{"class_thresholds", p.class_thresholds}};
  JsonReader r(doc, file, "");
  return parse_class_thresholds(r, "class_thresholds");
}

// Each policy's policy_params, checked as the policy reads them on GPU (the profiles
// file, which the experiment gives the policies that read one, stands in as a name).
void check_policy_params(const SmAllocationParams& p, const std::string& gpu, const std::string& file) {
  const PolicyGpu on = load_policy_gpu(gpu);
  for (const auto& [policy, params] : p.policy_params) {
    if (params.is_null()) continue;
    bool reads_profiles = false;
    for (const PolicyRun& r : sm_allocation_policies()) reads_profiles |= r.policy == policy && r.profiles;
    const Json given = reads_profiles ? Json{{"profiles", "profiles.json"}} : Json::object();
    check_policy_settings(params, policy, on, file, "policy_params." + policy, given);
  }
}

void take_policy_params(const SmAllocationParams& p, SmAllocationConfig& c, const SuiteConfig& sc) {
  check_policy_params(p, sc.gpu, sc.file);
  for (const auto& [policy, params] : p.policy_params) {
    if (params.is_null()) continue;
    c.policy_params[policy] = params;
    c.policy_sets[policy] = policy_sets(params);
  }
}

// A real suite's queues: those whose programs --only leaves in (all of them without --only),
// and every queue to build (from the programs --only leaves in).
void keep_wanted_queues(SmAllocationConfig& c, std::vector<SmAllocationQueue> queues,
                        const std::set<std::string>& wanted, const std::string& file) {
  for (SmAllocationQueue& q : queues) {
    const bool keep =
        q.to_build() ? wanted.size() >= 2
                     : std::all_of(q.apps.begin(), q.apps.end(), [&](const auto& a) { return wanted.count(a) > 0; });
    if (keep) c.queues.push_back(std::move(q));
  }
  if (c.queues.empty())
    throw InputError(file, "queues",
                     "no queue uses only programs --only names, and a queue to build needs two of them (a real "
                     "suite's --only names programs)");
}

// The GPU config FILE's name and SM count (a multiple of 12), and the profiles' step.
void take_gpu(SmAllocationConfig& c, const std::string& file) {
  const GpuConfig gpu = load_gpu_config(file);
  c.gpu = file;
  c.gpu_name = gpu.name;
  c.sms = gpu.sm.count;
  if (c.sms % 12)
    throw InputError(file, "sm.count",
                     "the SM allocation experiment profiles n = K/12, 2K/12, ..., K SMs: expected a multiple of 12");
  c.step = c.sms / 12;
}

// The experiment C on its pascal_gpu: the file, the policies' settings and the programs checked there.
std::shared_ptr<const SmAllocationConfig> pascal_column(const SmAllocationConfig& c, const SmAllocationParams& p,
                                                        const SuiteConfig& sc, const std::string& scale) {
  const std::string file = source_relative(p.pascal_gpu);
  if (const std::string why = regular_file_problem(file); !why.empty()) throw InputError(sc.file, "pascal_gpu", why);
  check_policy_params(p, file, sc.file);
  auto pascal = std::make_shared<SmAllocationConfig>(c);
  pascal->label = "pascal";
  take_gpu(*pascal, file);
  if (c.real)
    for (const SmAllocationApp& a : c.used) check_program(file, a.file, scale);
  return pascal;
}

// Program E's workload file at SCALE: its own, or at --scale paper with paper_args a copy
// declaring them (workload_with_paper_args). paper_args are checked at every scale.
std::string program_file(const SuiteEntry& e, const std::vector<std::string>& paper_args, const std::string& scale,
                         const std::string& config_file) {
  if (paper_args.empty()) return e.file;
  const std::string path = "programs[" + std::to_string(e.index) + "].paper_args";
  const Json doc = load_json_file(e.file);
  if (!doc.contains("scales") || !doc["scales"].contains("paper"))
    throw InputError(config_file, path,
                     e.file +
                         " declares no paper scale (\"scales\": {\"paper\": {\"generator\", \"args\"}}) whose "
                         "generator arguments paper_args would replace");
  const std::vector<std::string> declared = scale_generator(e.file, "paper").args;
  if (!declared.empty() && paper_args[0] != declared[0])
    throw InputError(config_file, path,
                     "the first argument names the generator's program: expected \"" + declared[0] + "\" (as " +
                         e.file + " declares it in scales.paper.args), got \"" + paper_args[0] + "\"");
  return scale == "paper" ? workload_with_paper_args(e.file, paper_args) : e.file;
}

}  // namespace

SmAllocationConfig SmAllocation::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  const SmAllocationParams p = read_experiment_config<SmAllocationParams>(opt, shipped_config);
  const SuiteConfig sc = suite_config(opt, shipped_config, p.suite);
  SmAllocationConfig c;
  c.out_dir = opt.out_dir;
  c.real = sc.real;
  c.scale = opt.scale;
  c.thresholds = class_thresholds_of(p, sc.file);
  take_policy_params(p, c, sc);
  c.claims = ClaimBook(p.claims);
  c.targets = claim_targets(p.targets);
  std::set<std::string> wanted_programs;
  if (c.real) {
    for (const SuiteEntry& e : suite_entries_of(opt, sc, p.programs, "programs")) {
      c.apps.push_back({e.name, "", program_file(e, p.programs[e.index].paper_args, opt.scale, sc.file)});
      if (e.wanted) wanted_programs.insert(e.name);
    }
  } else {
    for (const SmAllocationAppParams& a : p.apps) c.apps.push_back({a.name, a.cls, ""});
    std::vector<EntryParams> queues;
    for (const SmAllocationQueue& q : p.queues) queues.push_back({q.name, ""});
    for (const SuiteEntry& e : suite_entries(opt, sc, queues, "queues"))
      if (e.wanted) c.queues.push_back(p.queues[e.index]);
  }
  c.gpu = sc.gpu;
  c.suite = sc.suite;
  if (c.real) {
    keep_wanted_queues(c, p.queues, wanted_programs, sc.file);
  } else {
    for (SmAllocationApp& a : c.apps) a.file = c.suite + "/" + a.name + ".json";
  }
  std::set<std::string> used_names;
  bool builds = false;  // a queue to build may use any application (of those --only leaves in)
  for (const SmAllocationQueue& q : c.queues) {
    used_names.insert(q.apps.begin(), q.apps.end());
    builds |= q.to_build();
  }
  for (const SmAllocationApp& a : c.apps) {
    const bool used = used_names.count(a.name) > 0 || (builds && (!c.real || wanted_programs.count(a.name)));
    if (!c.real) {
      add_checked_app(c.used, a, used);
    } else if (used) {
      check_program(c.gpu, a.file, opt.scale);
      c.used.push_back(a);
    }
  }
  take_gpu(c, c.gpu);
  if (!p.pascal_gpu.empty()) c.pascal = pascal_column(c, p, sc, opt.scale);
  return c;
}

}  // namespace gpupm
