#include "gpupm/policy/sm_allocation/sm_profiles.h"
#include "gpupm/common/json_reader.h"

#include <stdexcept>

namespace gpupm {

std::string classify(const ProfilePoint& p, const ClassThresholds& t) {
  if (p.mbu < t.active_mbu && p.l2_l1_gbps < t.active_l2_l1_gbps) return "A";
  if (p.l2_hit_rate >= t.cache_l2_hit) return "C";
  return p.l2_hit_rate >= t.mixed_l2_hit ? "MC" : "M";
}

ClassThresholds parse_class_thresholds(JsonReader& parent, const std::string& key) {
  ClassThresholds t;
  if (!parent.has(key)) return t;
  JsonReader r = parent.object(key);
  t.active_mbu = r.get_double("active_mbu", 0.0, 1.0, t.active_mbu);
  t.active_l2_l1_gbps = r.get_double("active_l2_l1_gbps", 0.0, 1e6, t.active_l2_l1_gbps);
  t.cache_l2_hit = r.get_double("cache_l2_hit", 0.0, 1.0, t.cache_l2_hit);
  t.mixed_l2_hit = r.get_double("mixed_l2_hit", 0.0, t.cache_l2_hit, t.mixed_l2_hit);
  r.finish();
  return t;
}

Json class_thresholds_json(const ClassThresholds& t) {
  return {{"active_mbu", t.active_mbu},
          {"active_l2_l1_gbps", t.active_l2_l1_gbps},
          {"cache_l2_hit", t.cache_l2_hit},
          {"mixed_l2_hit", t.mixed_l2_hit}};
}

const ProfilePoint& AppProfile::at(uint32_t n) const {
  for (const ProfilePoint& p : points)
    if (p.n == n) return p;
  throw std::out_of_range("profile of " + name + ": no point at " + std::to_string(n) + " SMs");
}

const AppProfile* ProfileSet::find(const std::string& name) const {
  for (const AppProfile& a : apps)
    if (a.name == name) return &a;
  return nullptr;
}

uint32_t best_pow_ef(const std::vector<ProfilePoint>& points) {
  const ProfilePoint* best = nullptr;
  for (const ProfilePoint& p : points)
    if (!best || p.pow_ef > best->pow_ef) best = &p;
  return best ? best->n : 0;
}

namespace {

ProfilePoint parse_point(JsonReader& r) {
  ProfilePoint p;
  p.n = uint32_t(r.get_uint("n", 1, 4096));
  p.time_s = r.get_double("time_s", 0.0, 1e9);
  p.ipc = r.get_double("ipc", 0.0, 1e9);
  p.power_w = r.get_double("power_w", 1e-9, 1e9);
  p.pow_ef = r.get_double("pow_ef", 0.0, 1e9);
  p.dram_gbps = r.get_double("dram_gbps", 0.0, 1e9);
  p.mbu = r.get_double("mbu", 0.0, 1.000001);
  p.l2_l1_gbps = r.get_double("l2_l1_gbps", 0.0, 1e9);
  p.l2_hit_rate = r.get_double("l2_hit_rate", 0.0, 1.0);
  p.mcr = r.get_double("mcr", 0.0, 1e9);
  return p;
}

}  // namespace

ProfileSet parse_profiles(const Json& doc, const std::string& file) {
  ProfileSet s;
  JsonReader r(doc, file, "");
  if (r.get_string("format") != "gpupm-sm-profiles")
    r.fail("format", "expected \"gpupm-sm-profiles\" (written by gpupm experiment sm-allocation)");
  s.gpu = r.get_string("gpu", "");
  s.sms = uint32_t(r.get_uint("sms", 2, 4096));
  s.step = uint32_t(r.get_uint("step", 1, s.sms));
  if (s.sms % s.step) r.fail("step", "expected a divisor of sms (" + std::to_string(s.sms) + ")");
  s.thresholds = parse_class_thresholds(r, "class_thresholds");
  const uint32_t count = s.sms / s.step;
  r.for_each("apps", 1, 100000, [&](JsonReader& a, size_t ai) {
    AppProfile p;
    p.name = a.get_string("name");
    for (size_t bi = 0; bi < ai; ++bi)
      if (s.apps[bi].name == p.name)
        a.fail("name", "expected a name different from apps[" + std::to_string(bi) + "]'s");
    p.cls = a.get_enum("class", {"A", "M", "C", "MC"}, "A");
    a.for_each("points", count, count, [&](JsonReader& pr, size_t i) {
      ProfilePoint pt = parse_point(pr);
      uint32_t want = uint32_t(i + 1) * s.step;
      if (pt.n != want)
        pr.fail("n", "expected " + std::to_string(want) + " (points at n = step, 2 step, ..., sms in order)");
      p.points.push_back(pt);
    });
    p.opt = uint32_t(a.get_uint("opt", s.step, s.sms));
    if (p.opt % s.step)
      a.fail("opt", "expected one of the profiled SM counts (a multiple of step " + std::to_string(s.step) + ")");
    s.apps.push_back(std::move(p));
  });
  r.finish();
  return s;
}

ProfileSet load_profiles(const std::string& file) { return parse_profiles(load_json_file(file), file); }

Json profiles_json(const ProfileSet& s) {
  Json apps = Json::array();
  for (const AppProfile& a : s.apps) {
    Json pts = Json::array();
    for (const ProfilePoint& p : a.points)
      pts.push_back({{"n", p.n},
                     {"time_s", p.time_s},
                     {"ipc", p.ipc},
                     {"power_w", p.power_w},
                     {"pow_ef", p.pow_ef},
                     {"dram_gbps", p.dram_gbps},
                     {"mbu", p.mbu},
                     {"l2_l1_gbps", p.l2_l1_gbps},
                     {"l2_hit_rate", p.l2_hit_rate},
                     {"mcr", p.mcr}});
    apps.push_back({{"name", a.name}, {"class", a.cls}, {"opt", a.opt}, {"points", pts}});
  }
  return {{"format", "gpupm-sm-profiles"},
          {"gpu", s.gpu},
          {"sms", s.sms},
          {"step", s.step},
          {"class_thresholds", class_thresholds_json(s.thresholds)},
          {"apps", apps}};
}

std::vector<AppProfile> profiles_for_apps(const std::string& file, const std::vector<std::string>& app_names,
                                          uint32_t sm_count, uint32_t* step) {
  ProfileSet s = load_profiles(file);
  if (sm_count && s.sms != sm_count)
    throw InputError(
        file, "sms",
        "the profiles were made on " + std::to_string(s.sms) + " SMs; this GPU has " + std::to_string(sm_count));
  std::vector<AppProfile> out;
  for (size_t i = 0; i < app_names.size(); ++i) {
    const AppProfile* p = s.find(app_names[i]);
    if (!p) {
      std::string have;
      for (const AppProfile& a : s.apps) have += (have.empty() ? "" : ", ") + a.name;
      throw InputError(file, "apps",
                       "no profile named \"" + app_names[i] + "\" (application " + std::to_string(i) +
                           " of the workload); the file has {" + have + "}");
    }
    out.push_back(*p);
  }
  if (step) *step = s.step;
  return out;
}

}  // namespace gpupm
