#include "gpupm/freq/dvfs_config.h"

#include "gpupm/common/param_reader.h"

#include <algorithm>

namespace gpupm {

namespace {

void describe_level(ParamVisitor& v, VfLevel& l) {
  v.text("name", l.name, "the level's name (policies and --set name it)", Presence::kRequired);
  v.number("mhz", l.mhz, 1.0, 100000.0, "MHz", "clock frequency", Presence::kRequired);
  v.number("volts", l.volts, 0.05, 5.0, "V", "supply voltage", Presence::kRequired);
}

std::optional<ParamProblem> ascending(const DomainDvfs& d) {
  for (size_t i = 1; i < d.levels.size(); ++i)
    if (d.levels[i].mhz <= d.levels[i - 1].mhz)
      return ParamProblem{"levels", "expected levels in ascending frequency (level " + std::to_string(i) + ")"};
  return std::nullopt;
}

std::optional<ParamProblem> distinct_names(const DomainDvfs& d) {
  for (size_t i = 1; i < d.levels.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (d.levels[j].name == d.levels[i].name)
        return ParamProblem{"levels", "duplicate level name \"" + d.levels[i].name + "\""};
  return std::nullopt;
}

// The SM domain's transition latency counts SM cycles, the memory domain's nanoseconds.
void describe_domain(ParamVisitor& v, DomainDvfs& d, bool cycles) {
  v.list("levels", d.levels, 1, 32, Presence::kRequired, "V/F levels in ascending frequency", describe_level);
  v.rule("ascending", "levels in ascending frequency", [&d] { return ascending(d); });
  v.rule("distinct_names", "no two levels of one name", [&d] { return distinct_names(d); });
  std::string nominal = d.nominal < d.levels.size() ? d.levels[d.nominal].name : "";
  v.text("nominal", nominal, "the nominal level's name", Presence::kRequired);
  v.rule("nominal_is_a_level", "nominal names one of the levels", [&] {
    return problem_unless(d.level_index(nominal) >= 0, "nominal",
                          "expected the name of one of the levels, got \"" + nominal + "\"");
  });
  d.nominal = uint32_t(std::max(0, d.level_index(nominal)));
  if (cycles)
    v.integer("transition_cycles", d.transition_cycles, 0, 1u << 24, "SM cycles", "V/F transition latency",
              Presence::kRequired);
  else v.number("transition_ns", d.transition_ns, 0.0, 1e9, "ns", "V/F transition latency", Presence::kRequired);
}

}  // namespace

void describe(ParamVisitor& v, DvfsConfig& c) {
  v.section("sm", Presence::kRequired, "the SM domain (clocks the SMs)",
            [&](ParamVisitor& s) { describe_domain(s, c.domain[0], true); });
  v.section("mem", Presence::kRequired, "the memory domain (the DRAM command clock)",
            [&](ParamVisitor& s) { describe_domain(s, c.domain[1], false); });
}

DvfsConfig parse_dvfs_config(JsonReader& r) {
  DvfsConfig c;
  read_params(r, c);
  return c;
}

}  // namespace gpupm
