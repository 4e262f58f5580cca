// A sweep spec as written (sweep_spec.h shows one): every key declared once
// (common/param.h) for the reader, `gpupm params --sweep`, and
// docs/schema/sweep_spec.schema.json. Paths are checked against the spec's
// folder here; sweep_spec.cc expands the axes into runs.
#pragma once

#include "gpupm/common/param.h"

#include <string>
#include <vector>

namespace gpupm {

using Json = nlohmann::json;

constexpr size_t kMaxSweepRuns = 100000;

struct SweepPointParams {
  std::string label;
  std::vector<std::string> sets;
  std::string workload, policy;
};

struct SweepAxisParams {
  std::string name;
  std::string set;  // with values
  std::vector<Json> values;
  std::vector<std::string> workloads, policies;
  std::vector<SweepPointParams> points;
  // "set", "workloads", "policies" or "points": the one given.
  std::string kind() const;
};

struct SweepBaseParams {
  std::string gpu, workload, policy = "baseline";
  uint64_t seed = 0;
  bool seed_given = false;  // "seed": 0 is a seed too
  std::vector<std::string> sets;
};

struct SweepSpecParams {
  std::string dir;  // the spec's folder: relative paths resolve against it (not a key)
  std::string name, description, combine = "product";
  SweepBaseParams base;
  std::vector<SweepAxisParams> axes;
  std::vector<Json> runs;  // combine list: axis name -> value label, checked against the axes
};

void describe(ParamVisitor& v, SweepSpecParams& s);

// A path as the spec means it: relative to its folder (lexically normal).
std::string resolve_spec_path(const std::string& dir, const std::string& path);
// The labels results.csv shows for an axis's values (workloads: the file's stem,
// or the path as written where two stems are equal).
std::vector<std::string> axis_labels(const SweepAxisParams& a);

}  // namespace gpupm
