#include "freq/dvfs_config.h"

namespace gpupm {

namespace {
DomainDvfs parse_domain(JsonReader& r, bool cycles) {
  DomainDvfs d;
  r.for_each("levels", 1, 32, [&](JsonReader& lr, size_t) {
    VfLevel l;
    l.name = lr.get_string("name");
    l.mhz = lr.get_double("mhz", 1.0, 100000.0);
    l.volts = lr.get_double("volts", 0.05, 5.0);
    d.levels.push_back(l);
  });
  for (size_t i = 1; i < d.levels.size(); ++i) {
    if (d.levels[i].mhz <= d.levels[i - 1].mhz)
      r.fail("levels", "expected levels in ascending frequency (level " + std::to_string(i) + ")");
    for (size_t j = 0; j < i; ++j)
      if (d.levels[j].name == d.levels[i].name) r.fail("levels", "duplicate level name \"" + d.levels[i].name + "\"");
  }
  std::string nominal = r.get_string("nominal");
  int n = d.level_index(nominal);
  if (n < 0) r.fail("nominal", "expected the name of one of the levels, got \"" + nominal + "\"");
  d.nominal = uint32_t(n);
  if (cycles)
    d.transition_cycles = uint32_t(r.get_uint("transition_cycles", 0, 1u << 24));
  else
    d.transition_ns = r.get_double("transition_ns", 0.0, 1e9);
  return d;
}
}  // namespace

DvfsConfig parse_dvfs_config(JsonReader& r) {
  DvfsConfig c;
  JsonReader sm = r.object("sm");
  c.domain[0] = parse_domain(sm, true);
  sm.finish();
  JsonReader mem = r.object("mem");
  c.domain[1] = parse_domain(mem, false);
  mem.finish();
  return c;
}

}  // namespace gpupm
