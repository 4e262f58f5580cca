// Droop statistics of a run, fed one SM cycle at a time with the set-point
// and every SM's node voltage. Droop = (V_set - V_node) / V_set.
//
// - worst droop per SM and chip-wide (with every SM's droop at that cycle);
// - a histogram of cycles by the chip-wide droop (the worst SM each cycle);
// - emergencies: droop events beyond `margin` (chip-wide and per SM), events
//   above a few fixed thresholds;
// - the temporal split (paper Sec. 3.2, docs/papers.md#voltage-noise-categories): a zero-phase low-pass
//   (2nd-order Butterworth run forward and backward, cutoff between the two
//   resonances) of each node voltage is the second-order component, the rest
//   the first-order one; each droop event above `split_threshold` is classed
//   at its deepest cycle as first-order dominant (first-order share > 60%),
//   second-order dominant, or balanced.
//
// The zero-phase filter needs the future, so samples are kept in a window and
// settled a block at a time with 1024 cycles of context on each side (the
// filter's memory is ~200 cycles at 700 MHz / 10 MHz); memory use is bounded.
#pragma once

#include "gpupm/vr/pdn_config.h"

#include <nlohmann/json_fwd.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace gpupm {

class DroopStats {
 public:
  DroopStats(uint32_t sm_count, const DroopStatsConfig& cfg);

  // `amps`: the total SM current of the cycle; `dispatch`: each SM's dispatch
  // power estimate of the cycle (DroopPredictor::estimate, 1/4 nJ); both only for the trace.
  void push(double dt, double v_ref, const std::vector<double>& sm_volts, double amps = 0,
            const std::vector<uint8_t>* dispatch = nullptr);
  // Settles everything pushed so far (the end of the run). Further pushes
  // start a new record.
  void finish();
  nlohmann::json to_json() const;

  uint64_t cycles() const { return settled_ - std::min(settled_, cfg_.start_cycle); }  // counted
  double worst_droop() const { return worst_; }
  uint32_t worst_sm() const { return worst_sm_; }
  uint64_t worst_cycle() const { return worst_cycle_; }
  const std::vector<double>& worst_by_sm() const { return sm_worst_; }
  uint64_t emergencies() const { return margin_events_.events; }
  uint64_t emergency_cycles() const { return emergency_cycles_; }
  uint64_t first_order() const { return classes_[0]; }
  uint64_t second_order() const { return classes_[1]; }
  uint64_t balanced() const { return classes_[2]; }
  double max_first_order() const { return max_first_; }
  double max_second_order() const { return max_second_; }
  const std::vector<uint64_t>& histogram() const { return hist_; }
  // CSV of the traced cycles (DroopStatsConfig::trace_*): set-point, total
  // current, the chip-wide droop with its worst SM and components, every SM's
  // voltage and second-order (low-passed) voltage, and each SM's dispatch
  // estimate (the droop predictor's input, for scripts/train_droop_predictor.py).
  // Empty without a trace.
  const std::string& trace_csv() const { return trace_; }
  bool tracing() const { return cfg_.trace_cycles > 0; }

  static constexpr size_t kBlock = 4096, kPad = 1024;

 private:
  // A droop event: the signal above `threshold`, ending after `gap` cycles below.
  struct Events {
    double threshold = 0;
    bool open = false;
    uint32_t below = 0;
    double peak = 0, peak_first = 0, peak_second = 0;
    uint64_t peak_cycle = 0;
    uint32_t peak_sm = 0;
    uint64_t events = 0;
  };
  // Returns true when an event closed at this sample (its peak is in e).
  bool track(Events& e, double value, double first, double second, uint32_t sm = 0);
  void settle(bool final);
  void classify(const Events& e);
  void trace_row(size_t n, double w, uint32_t wi, double first, double second);
  double trace_t0_ = 0;  // time of the traced cycles, from the first

  const uint32_t n_;
  const DroopStatsConfig cfg_;
  // window of unsettled (and context) samples
  std::vector<std::vector<double>> v_;  // per SM
  std::vector<double> ref_, dt_, amps_;
  std::vector<std::vector<uint8_t>> dispatch_;  // per SM, kept only with a trace
  std::string trace_;
  size_t pending_ = 0;                   // first unsettled sample in the window
  std::vector<std::vector<double>> lp_;  // scratch: filtered window per SM
  // results
  uint64_t settled_ = 0;
  double worst_ = -1;
  uint32_t worst_sm_ = 0;
  uint64_t worst_cycle_ = 0;
  std::vector<double> worst_snapshot_;
  std::vector<double> sm_worst_;
  std::vector<Events> sm_events_;  // per SM at the margin
  Events margin_events_, split_events_;
  std::vector<Events> level_events_;
  uint64_t emergency_cycles_ = 0;
  uint64_t classes_[3] = {0, 0, 0};
  double max_first_ = 0, max_second_ = 0;
  double sum_mean_droop_ = 0;
  std::vector<uint64_t> hist_;
  std::vector<double> droop_;  // scratch
  struct Top {
    double droop, first, second;
    uint64_t cycle;
    uint32_t sm;
  };
  std::vector<Top> top_;  // the largest classified events, deepest first
 public:
  static constexpr size_t kTopEvents = 10;
};

}  // namespace gpupm
