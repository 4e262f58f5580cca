// A design-space sweep: a base run (GPU config, workload, policy, seed,
// overrides) and axes (--set values, workloads, policies, groups of overrides),
// combined as a cartesian product or as an explicit list of points. Parsing
// validates the spec and every run it expands to (InputError: exit 2 with the
// spec file, the JSON path and what is allowed). Each run's id is a hash of its
// full inputs (the resolved run document that report.json echoes), so the same
// run has the same id in every sweep and on every machine.
//
// {
//   "name": "ctas-vs-sm-clock",                // optional
//   "description": "...",                      // optional
//   "base": {"gpu": "../gpu/gtx480.json",      // paths: relative to the spec file
//            "workload": "../workloads/compute.json",  // or given by a workloads axis
//            "policy": "static",               // default baseline
//            "seed": 1,                        // optional
//            "set": ["gpu.sim.max_sim_ms=5"]}, // optional, applied to every run
//   "combine": "product",                      // or "list" (then "runs" is required)
//   "axes": [
//     {"name": "ctas",   "set": "policy.ctas_per_sm", "values": [1, 2, 4]},
//     {"name": "policy", "policies": ["baseline", "sm-high"]},
//     {"name": "kernel", "workloads": ["../workloads/compute.json", "../workloads/streaming.json"]},
//     {"name": "memory", "points": [{"label": "slow", "set": ["gpu.memory.l2_latency=300", "..."]}, ...]}
//   ],
//   "runs": [{"ctas": 2, "policy": "static"}, ...]   // combine=list: each names a value (label) per axis;
//                                                     // an axis left out keeps the base
// }
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/sweep/run_executor.h"

#include <string>
#include <vector>

namespace gpupm {

struct SweepAxisValue {
  std::string label;              // what results.csv shows
  std::vector<std::string> sets;  // --set overrides
  std::string workload;           // absolute path, or empty
  std::string policy;             // or empty
};

struct SweepAxis {
  std::string name;
  std::string kind;  // "set", "workloads", "policies", "points"
  std::vector<SweepAxisValue> values;
};

struct SweepPoint {
  std::vector<std::string> labels;  // one per axis; "" where a listed point leaves the axis out
  std::string id;                   // hash of the resolved run document
  RunSpec run;                      // `gpupm run` arguments (absolute paths), fingerprint = id
};

struct SweepSpec {
  std::string file;
  std::string name;
  std::string description;
  std::string combine;  // "product" or "list"
  std::vector<SweepAxis> axes;
  std::vector<SweepPoint> points;  // in order: product with the first axis outermost, or the list's order

  // The distinct runs (several points may resolve to the same inputs and share one run).
  std::vector<RunSpec> unique_runs() const;
};

// Reads (the keys are declared in sweep_spec_params.h), validates and expands a spec file (InputError on any problem).
// At a SCALE other than ci every run gets --scale SCALE, and its id the scale's record (program/workload_scale.h).
SweepSpec load_sweep_spec(const std::string& file, const std::string& scale = "ci");
SweepSpec parse_sweep_spec(const Json& doc, const std::string& file, const std::string& scale = "ci");

// Column names results.csv reserves (axes may not use them).
const std::vector<std::string>& reserved_result_columns();

}  // namespace gpupm
