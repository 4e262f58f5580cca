// The Harmonia experiment on real programs (configs/experiments/harmonia_real.json).
// Each program runs whole under every variant and grid point (Harmonia tunes
// each kernel across its launches, as on the synthetic suite). The paper's
// category of each kernel -- its compute- and bandwidth-sensitivity bins -- is
// measured, never assigned: Table 3's predictors (policy/harmonia/harmonia_model.h)
// on the Table 2 counters of its launches that ran at the top configuration
// (all CUs, top clocks: the Harmonia run's trace), binned LOW < 30% <= MED <=
// 70% < HIGH. The paper's definition of sensitivity measured on the static grid
// stands beside it as a check. A program's class, which the claims pick by,
// follows from its longest kernel's bins and from the grid (fewer CUs faster).
#pragma once

#include "gpupm/experiment/harmonia/harmonia.h"

namespace gpupm {

// The class the claims read from a program's longest kernel's bins (LOW, MED,
// HIGH): compute HIGH and bandwidth LOW is H-COMP (compute-bound), bandwidth
// HIGH and compute below HIGH H-STREAM (bandwidth-bound), both at least MED
// H-MIXED, else H-LATENCY (neither clock matters much); " + THRASH" when fewer
// CUs run it faster (H-THRASH, docs/papers.md#harmonia-classes).
std::string harmonia_measured_class(const std::string& comp_bin, const std::string& bw_bin, bool thrash);

// Sensitivity as the paper defines it (Sec. 4.3), on performance: the relative
// loss of performance (1 - T_top / T_low) over the relative cut of the tunable
// (1 - X_low / X_top), the others at their top; 1 for a run time inversely
// proportional to the tunable, 0 for none.
double measured_sensitivity(double time_top, double time_low, double value_top, double value_low);

// Per program, per kernel: time share, the predictor's sensitivities and bins
// at the top configuration, the grid's sensitivities; per program its class
// and the grid's thrash gain (top clocks: time at all CUs / best with fewer).
Json measure_harmonia_programs(const HarmoniaConfig& c, const RunReports& reports);

// C with each program's class set from MEASURED.
HarmoniaConfig with_measured_classes(const HarmoniaConfig& c, const Json& measured);

}  // namespace gpupm
