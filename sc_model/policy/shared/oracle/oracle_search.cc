#include "gpupm/policy/shared/oracle/oracle_search.h"

#include "gpupm/common/param_reader.h"

#include <cmath>
#include <limits>

namespace gpupm {

std::vector<OraclePoint> OracleSpace::points() const {
  std::vector<OraclePoint> out = {{}};
  for (const OracleAxis& a : axes) {
    std::vector<OraclePoint> next;
    for (const OraclePoint& p : out)
      for (const Json& v : a.values) {
        OraclePoint q = p;
        q.emplace_back(a.param, v);
        next.push_back(std::move(q));
      }
    out = std::move(next);
  }
  return out;
}

namespace {
std::string value_text(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }
}  // namespace

std::string point_label(const OraclePoint& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : ",") + k + "=" + value_text(v);
  return s;
}

std::string point_run_name(const OracleSpace& o, const OraclePoint& p) {
  std::string s = point_label(p);
  for (char& c : s)
    if (c == ',' || c == '=' || c == '/') c = c == '=' ? '-' : '_';
  return o.name + "_" + s;
}

std::vector<std::string> point_args(const OraclePoint& p) {
  std::vector<std::string> a = {"--policy", "static-point"};
  for (const auto& [k, v] : p) {
    a.push_back("--set");
    a.push_back("policy." + k + "=" + value_text(v));
  }
  return a;
}

namespace {
const std::vector<std::string> kOracleParams = {"sms", "sm_level", "mem_level", "ctas_per_sm"};
}  // namespace

void describe(ParamVisitor& v, OracleSpaceParams& s) {
  v.text("name", s.name, "the space's name: its runs are NAME_<point>", Presence::kRequired);
  v.section("objective", Presence::kRequired, "what the oracle picks", [&](ParamVisitor& o) {
    o.choice("kind", s.objective.kind, {"min_energy", "min_ed2p", "max_perf_per_w"},
             "min_energy: lowest energy within max_loss of the baseline's time; min_ed2p: lowest energy x time^2; "
             "max_perf_per_w: highest performance per watt");
    o.number("max_loss", s.objective.max_loss, 0.0, 10.0, "", "min_energy: the allowed slowdown against the baseline");
  });
  v.json_object("axes", s.axes,
                "static-point parameters (sms, sm_level, mem_level, ctas_per_sm), each a non-empty array of values "
                "or {\"from\", \"to\", \"step\"} (integers)",
                Presence::kRequired);
}

OracleSpace oracle_space(const OracleSpaceParams& p, const std::string& file, const std::string& path) {
  OracleSpace s;
  s.name = p.name;
  s.objective = p.objective;
  JsonReader axes(p.axes, file, path.empty() ? "axes" : path + ".axes");
  for (const std::string& param : kOracleParams) {
    if (!axes.has(param)) continue;
    OracleAxis a;
    a.param = param;
    const Json& raw = axes.raw(param);
    if (raw.is_object()) {  // {"from", "to", "step"}: integers
      JsonReader rr = axes.object(param);
      uint64_t from = rr.get_uint("from", 0, 1u << 20), to = rr.get_uint("to", from, 1u << 20);
      uint64_t step = rr.get_uint("step", 1, 1u << 20, 1);
      rr.finish();
      for (uint64_t v = from; v <= to; v += step) a.values.push_back(v);
      if (a.values.back().get<uint64_t>() != to) a.values.push_back(to);
    } else if (raw.is_array() && !raw.empty()) {
      for (const Json& v : raw) a.values.push_back(v);
    } else {
      axes.fail(param, "expected a non-empty array of values or {\"from\", \"to\", \"step\"}");
    }
    s.axes.push_back(std::move(a));
  }
  axes.finish();
  if (s.axes.empty())
    throw InputError(file, path.empty() ? "axes" : path + ".axes",
                     "expected at least one of {sms, sm_level, mem_level, ctas_per_sm}");
  return s;
}

OracleSpace parse_oracle_space(JsonReader& r) {
  OracleSpaceParams p;
  read_params(r, p);
  return oracle_space(p, r.file(), r.path());
}

double oracle_score(const OracleObjective& o, const OracleOutcome& b, const OracleOutcome& x) {
  const double inf = std::numeric_limits<double>::infinity();
  if (x.time_s <= 0 || x.energy_j <= 0) return inf;
  if (o.kind == "min_energy") return x.time_s <= b.time_s * (1.0 + o.max_loss) * (1 + 1e-12) ? x.energy_j : inf;
  if (o.kind == "min_ed2p") return x.energy_j * x.time_s * x.time_s;
  // perf per watt = (1/t) / (E/t) = 1/E: the lowest energy for the same work
  return x.energy_j;
}

int oracle_best(const OracleObjective& o, const OracleOutcome& b, const std::vector<OracleOutcome>& xs) {
  int best = -1;
  double bs = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < xs.size(); ++i) {
    double s = oracle_score(o, b, xs[i]);
    if (s < bs) bs = s, best = int(i);
  }
  return best;
}

}  // namespace gpupm
