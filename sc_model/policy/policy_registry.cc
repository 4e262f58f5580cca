#include "policy/policy.h"
#include "policy/static_policy.h"

namespace gpupm {

namespace {

// Named static points: {name, SM level, memory level}; "" means nominal.
struct StaticPoint {
  const char* name;
  const char* sm;
  const char* mem;
};
constexpr StaticPoint kStaticPoints[] = {
    {"baseline", "", ""}, {"sm-high", "high", ""}, {"sm-low", "low", ""}, {"mem-high", "", "high"}, {"mem-low", "", "low"},
};

uint32_t level_param(JsonReader& p, const char* key, const char* preset, const DomainDvfs& d) {
  std::vector<std::string> names;
  for (const auto& l : d.levels) names.push_back(l.name);
  std::string dflt = *preset ? preset : d.levels[d.nominal].name;
  if (*preset && d.level_index(preset) < 0)
    p.fail(key, std::string("this policy needs a V/F level named \"") + preset + "\" in the GPU config");
  return uint32_t(d.level_index(p.get_enum(key, names, dflt)));
}

}  // namespace

std::vector<std::string> policy_names() {
  std::vector<std::string> n;
  for (const auto& s : kStaticPoints) n.push_back(s.name);
  n.push_back("static");
  return n;
}

std::unique_ptr<Policy> make_policy(const std::string& name, JsonReader& p, const DvfsConfig& dvfs) {
  for (const auto& s : kStaticPoints) {
    if (name != s.name && name != "static") continue;
    const char* sm = name == "static" ? "" : s.sm;
    const char* mem = name == "static" ? "" : s.mem;
    uint32_t sm_level = level_param(p, "sm_level", sm, dvfs[Domain::Sm]);
    uint32_t mem_level = level_param(p, "mem_level", mem, dvfs[Domain::Mem]);
    uint32_t ctas = uint32_t(p.get_uint("ctas_per_sm", 0, 64, 0));
    return std::make_unique<StaticPolicy>(name, sm_level, mem_level, ctas, dvfs);
  }
  std::string list;
  for (const auto& n : policy_names()) list += (list.empty() ? "" : ", ") + n;
  p.fail("name", "unknown policy \"" + name + "\"; expected one of {" + list + "}");
}

}  // namespace gpupm
