// An exhaustive oracle over a static configuration space, as data: axes of
// static-point policy parameters (policy.sms, policy.sm_level, policy.mem_level,
// policy.ctas_per_sm) and an objective. The experiment runs every point (in
// parallel processes through the run pool) and picks the best one here.
//   objective kinds
//     min_energy     lowest energy whose time is within (1 + max_loss) of the baseline's
//     min_ed2p       lowest energy x time^2
//     max_perf_per_w highest (1 / time) / average power, i.e. lowest energy for the work
// Config: {"name": "oracle-sm", "objective": {"kind": "min_energy", "max_loss": 0.02},
//          "axes": {"sms": {"from": 1, "to": 32, "step": 1}, "sm_level": ["s5", "s6"]}}
#pragma once

#include "gpupm/common/json_reader.h"
#include "gpupm/common/param.h"

#include <string>
#include <utility>
#include <vector>

namespace gpupm {

struct OracleObjective {
  std::string kind = "min_energy";
  double max_loss = 0.02;  // min_energy: allowed slowdown against the baseline
};

struct OracleAxis {
  std::string param;         // a static-point policy parameter
  std::vector<Json> values;  // in order
};

// One point: (param, value) for every axis.
using OraclePoint = std::vector<std::pair<std::string, Json>>;

struct OracleSpace {
  std::string name;
  OracleObjective objective;
  std::vector<OracleAxis> axes;
  std::vector<OraclePoint> points() const;  // the cartesian product, first axis slowest
};

// A point's id part, e.g. "sms=12,sm_level=s5".
std::string point_label(const OraclePoint& p);
// The point's run name in an experiment, e.g. "oracle-sm_sms-12_sm_level-s5"
// (the space's name, then the label with ',' -> '_' and '=' -> '-').
std::string point_run_name(const OracleSpace& o, const OraclePoint& p);
// `gpupm run` arguments that select the point.
std::vector<std::string> point_args(const OraclePoint& p);

// An oracle space as written, declared once (common/param.h): name, objective
// and axes (each a non-empty array of values or {"from", "to", "step"}: kept as
// given here, expanded by oracle_space, which says what is wrong where).
struct OracleSpaceParams {
  std::string name;
  OracleObjective objective;
  Json axes = Json::object();
};
void describe(ParamVisitor& v, OracleSpaceParams& s);
// The space P declares, its axes expanded; InputError (FILE, PATH.axes...) for a bad axis.
OracleSpace oracle_space(const OracleSpaceParams& p, const std::string& file, const std::string& path);

OracleSpace parse_oracle_space(JsonReader& r);

struct OracleOutcome {
  double time_s = 0, energy_j = 0;
};
// Lower is better; +inf if the point violates the objective's constraint.
double oracle_score(const OracleObjective& o, const OracleOutcome& baseline, const OracleOutcome& x);
// Index of the best point (ties: the first); -1 if none satisfies the constraint.
int oracle_best(const OracleObjective& o, const OracleOutcome& baseline, const std::vector<OracleOutcome>& xs);

}  // namespace gpupm
