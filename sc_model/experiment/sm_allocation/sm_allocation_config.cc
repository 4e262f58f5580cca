#include "experiment/sm_allocation/sm_allocation.h"
#include "common/data_dir.h"

#include "platform/gpu_config.h"

#include <algorithm>
#include <set>

namespace gpupm {

const char kSequential[] = "sequential";

const std::vector<PolicyRun>& sm_allocation_policies() {
  static const std::vector<PolicyRun> policies = {
      {"baseline", "baseline", false, false, true},
      {"sm-allocation", "sm-allocation", true, true, true},
      {"ilp-smra", "ilp-smra", true, false, true},
      {"aging-power", "aging-power", false, true, true},
      {"perf-aging", "perf-aging", true, true, true},
      {"sm-allocation-fcfs", "sm-allocation", false, true, false},
  };
  return policies;
}

const std::vector<ClaimLimits>& sm_allocation_claim_limits() {
  static const std::vector<ClaimLimits> limits = {
      {"C1a", {"throughput_min", "throughput_max"}}, {"C1b", {"efficiency_min", "efficiency_max"}}, {"C1c", {}},   {"C1d", {}},
      {"C2", {}},                  {"C3", {}},                  {"C3b", {}},   {"C3c", {"of_nine_min"}},
      {"C4a", {}},                 {"C4b", {}},                 {"C4c", {"of_nine_min", "of_nine_max"}},
      {"C4d", {"of_nine_min"}},    {"C5", {}},                  {"C6", {}}};
  return limits;
}

namespace {

void read_policy_params(JsonReader& r, SmAllocationConfig& c) {
  if (!r.has("policy_params")) return;
  JsonReader pp = r.object("policy_params");
  for (const PolicyRun& p : sm_allocation_policies()) {
    if (!pp.has(p.policy) || c.policy_params.contains(p.policy)) continue;
    const Json& o = pp.raw(p.policy);
    if (!o.is_object()) pp.fail(p.policy, "expected an object of policy parameters");
    c.policy_params[p.policy] = o;
    for (auto it = o.begin(); it != o.end(); ++it)
      c.policy_sets[p.policy].insert(c.policy_sets[p.policy].end(),
                                     {"--set", "policy." + it.key() + "=" + it.value().dump()});
  }
  pp.finish();
}

SmAllocationQueue read_queue(JsonReader& q, const std::string& name, const std::map<std::string, size_t>& app_index) {
  SmAllocationQueue x;
  x.name = name;
  x.kind = q.get_string("kind", "");
  const Json& list = q.raw("apps");
  if (!list.is_array() || list.size() < 2 || list.size() % 2)
    q.fail("apps", "expected an even number (>= 2) of application names");
  std::map<std::string, size_t> count;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string() || !app_index.count(list[i].get<std::string>()))
      q.fail("apps", "element " + std::to_string(i) +
                         ": expected the name of an entry of \"apps\" (of \"programs\" in a real suite)");
    x.apps.push_back(list[i].get<std::string>());
    if (++count[x.apps.back()] > list.size() / 2)
      q.fail("apps", "\"" + x.apps.back() + "\" fills more than half the queue (an app never pairs with itself)");
  }
  for (size_t i = 0; i + 1 < x.apps.size(); i += 2)  // first come, first served pairs
    if (x.apps[i] == x.apps[i + 1])
      q.fail("apps", "elements " + std::to_string(i) + " and " + std::to_string(i + 1) +
                         " are the same application (first come, first served would pair it with itself)");
  return x;
}

// A real suite's "programs" names (each entry is checked as an entry of the suite), for its queues.
std::map<std::string, size_t> program_index(JsonReader& r) {
  std::map<std::string, size_t> index;
  const Json& programs = r.raw("programs");
  for (size_t i = 0; programs.is_array() && i < programs.size(); ++i)
    if (programs[i].is_object() && programs[i].contains("name") && programs[i]["name"].is_string())
      index[programs[i]["name"].get<std::string>()] = i;
  return index;
}

void read_synthetic_apps(JsonReader& r, SmAllocationConfig& c, std::map<std::string, size_t>& app_index) {
  r.for_each("apps", 2, 1000, [&](JsonReader& a, size_t i) {
    SmAllocationApp x;
    x.name = a.get_string("name");
    x.cls = a.get_enum("class", {"A", "M", "C", "MC"}, "A");
    if (app_index.count(x.name)) a.fail("name", "\"" + x.name + "\" is listed twice");
    app_index[x.name] = i;
    c.apps.push_back(x);
  });
}

// A real suite's queues: those whose programs --only leaves in (all of them without --only).
void keep_wanted_queues(SmAllocationConfig& c, std::vector<SmAllocationQueue> queues, const std::set<std::string>& wanted,
                        const std::string& file) {
  for (SmAllocationQueue& q : queues)
    if (std::all_of(q.apps.begin(), q.apps.end(), [&](const std::string& a) { return wanted.count(a) > 0; }))
      c.queues.push_back(std::move(q));
  if (c.queues.empty())
    throw InputError(file, "queues", "no queue uses only programs --only names (a real suite's --only names programs)");
}

}  // namespace

SmAllocationConfig SmAllocation::load(const ExperimentOptions& opt, const std::string& shipped_config) {
  SmAllocationConfig c;
  c.out_dir = opt.out_dir;
  c.real = is_real_suite(opt, shipped_config);
  c.scale = opt.scale;
  std::map<std::string, size_t> app_index;
  std::vector<SmAllocationQueue> real_queues;
  std::set<std::string> wanted_programs;
  SuiteConfig sc = read_suite_config(
      opt, shipped_config, "queues",
      [&](JsonReader& r) {
        c.thresholds = parse_class_thresholds(r, "class_thresholds");
        read_policy_params(r, c);
        c.gpu = source_relative(r.get_string("gpu"));
        if (!c.real) {
          read_synthetic_apps(r, c, app_index);
        } else {  // the queues name programs, the suite's entries
          app_index = program_index(r);
          r.for_each("queues", 1, 1000,
                     [&](JsonReader& q, size_t) { real_queues.push_back(read_queue(q, q.get_string("name"), app_index)); });
        }
        c.claims = ClaimBook::read(r, shipped_config, sm_allocation_claim_limits());
        c.targets = read_claim_targets(r, shipped_config, sm_allocation_claim_limits());
      },
      [&](JsonReader& e, const std::string& name, const std::string& file, bool wanted) {
        if (c.real) {
          c.apps.push_back({name, "", file});
          if (wanted) wanted_programs.insert(name);
          return;
        }
        SmAllocationQueue x = read_queue(e, name, app_index);
        if (wanted) c.queues.push_back(x);
      });
  c.gpu = sc.gpu;
  c.suite = sc.suite;
  if (c.real) {
    keep_wanted_queues(c, std::move(real_queues), wanted_programs, sc.file);
  } else {
    for (SmAllocationApp& a : c.apps) a.file = c.suite + "/" + a.name + ".json";
  }
  std::set<std::string> used_names;
  for (const SmAllocationQueue& q : c.queues) used_names.insert(q.apps.begin(), q.apps.end());
  for (const SmAllocationApp& a : c.apps) {
    const bool used = used_names.count(a.name) > 0;
    if (!c.real) {
      add_checked_app(c.used, a, used);
    } else if (used) {
      check_program(c.gpu, a.file, opt.scale);
      c.used.push_back(a);
    }
  }
  const InputFileScope gpu_file_scope(c.gpu);
  const GpuConfig gpu = parse_gpu_config(load_json_file(c.gpu), c.gpu);
  c.gpu_name = gpu.name;
  c.sms = gpu.sm.count;
  if (c.sms % 12)
    throw InputError(c.gpu, "sm.count", "the SM allocation experiment profiles n = K/12, 2K/12, ..., K SMs: expected a multiple of 12");
  c.step = c.sms / 12;
  return c;
}

}  // namespace gpupm
