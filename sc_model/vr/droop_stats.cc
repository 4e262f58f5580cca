#include "gpupm/vr/droop_stats.h"

#include "gpupm/common/csv_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace gpupm {

namespace {

const double kLevels[] = {0.02, 0.04, 0.05, 0.08, 0.10, 0.12};

// 2nd-order Butterworth low-pass (bilinear transform, pre-warped), direct form II transposed.
struct Biquad {
  double b0, b1, b2, a1, a2;
  Biquad(double cutoff_hz, double dt) {
    double k = std::tan(M_PI * std::min(cutoff_hz * dt, 0.49));
    double norm = 1.0 / (1.0 + M_SQRT2 * k + k * k);
    b0 = k * k * norm;
    b1 = 2.0 * b0;
    b2 = b0;
    a1 = 2.0 * (k * k - 1.0) * norm;
    a2 = (1.0 - M_SQRT2 * k + k * k) * norm;
  }
  // Filters x[first..last) (step +1 or -1) into y, starting from steady state at x[first].
  void run(const std::vector<double>& x, std::vector<double>& y, long first, long last, long stepdir) const {
    double x0 = x[size_t(first)];
    double z1 = x0 * (1.0 - b0), z2 = x0 * (b2 - a2);
    for (long i = first; i != last; i += stepdir) {
      double in = x[size_t(i)];
      double out = b0 * in + z1;
      z1 = b1 * in - a1 * out + z2;
      z2 = b2 * in - a2 * out;
      y[size_t(i)] = out;
    }
  }
};

}  // namespace

DroopStats::DroopStats(uint32_t sm_count, const DroopStatsConfig& cfg)
    : n_(sm_count), cfg_(cfg), v_(sm_count), lp_(sm_count), sm_worst_(sm_count, 0.0), sm_events_(sm_count) {
  for (Events& e : sm_events_) e.threshold = cfg.margin;
  margin_events_.threshold = cfg.margin;
  split_events_.threshold = cfg.split_threshold;
  for (double l : kLevels) {
    Events e;
    e.threshold = l;
    level_events_.push_back(e);
  }
  hist_.assign(size_t(std::ceil(cfg.histogram_max / cfg.histogram_bin - 1e-9)) + 1, 0);
  worst_snapshot_.assign(sm_count, 0.0);
  droop_.assign(sm_count, 0.0);
  for (auto& v : v_) v.reserve(kBlock + 3 * kPad);
}

void DroopStats::push(double dt, double v_ref, const std::vector<double>& sm_volts, double amps,
                      const std::vector<uint8_t>* dispatch) {
  for (uint32_t i = 0; i < n_; ++i) v_[i].push_back(sm_volts[i]);
  if (cfg_.trace_cycles) {
    dispatch_.resize(n_);
    for (uint32_t i = 0; i < n_; ++i) dispatch_[i].push_back(dispatch ? (*dispatch)[i] : 0);
  }
  ref_.push_back(v_ref);
  dt_.push_back(dt);
  amps_.push_back(amps);
  if (ref_.size() >= pending_ + kBlock + kPad) settle(false);
}

void DroopStats::finish() {
  if (ref_.size() > pending_) settle(true);
  for (Events* e : {&margin_events_, &split_events_}) {
    if (e->open) {
      ++e->events;
      if (e == &split_events_) classify(*e);
      e->open = false;
    }
  }
  for (Events& e : level_events_)
    if (e.open) ++e.events, e.open = false;
  for (Events& e : sm_events_)
    if (e.open) ++e.events, e.open = false;
  for (auto& v : v_) v.clear();
  for (auto& p : dispatch_) p.clear();
  ref_.clear();
  dt_.clear();
  amps_.clear();
  pending_ = 0;
}

bool DroopStats::track(Events& e, double value, double first, double second, uint32_t sm) {
  if (value > e.threshold) {
    if (!e.open || value > e.peak) {
      e.peak = value;
      e.peak_first = first;
      e.peak_second = second;
      e.peak_cycle = settled_;
      e.peak_sm = sm;
    }
    e.open = true;
    e.below = 0;
    return false;
  }
  if (e.open && ++e.below >= cfg_.event_gap_cycles) {
    e.open = false;
    ++e.events;
    return true;
  }
  return false;
}

void DroopStats::classify(const Events& e) {
  double total = e.peak_first + e.peak_second;  // = the droop at the peak
  if (total <= 0) return;
  Top t{e.peak, e.peak_first, e.peak_second, e.peak_cycle, e.peak_sm};
  auto at = std::upper_bound(top_.begin(), top_.end(), t, [](const Top& a, const Top& b) { return a.droop > b.droop; });
  if (size_t(at - top_.begin()) < kTopEvents) {
    top_.insert(at, t);
    if (top_.size() > kTopEvents) top_.pop_back();
  }
  if (e.peak_first / total > cfg_.dominance) ++classes_[0];
  else if (e.peak_second / total > cfg_.dominance) ++classes_[1];
  else ++classes_[2];
}

void DroopStats::settle(bool final) {
  const size_t len = ref_.size();
  const size_t end = final ? len : len - kPad;  // settle [pending_, end)
  // Zero-phase low-pass over the whole window (context on both sides).
  Biquad f(cfg_.split_cutoff_hz, dt_[pending_]);
  for (uint32_t i = 0; i < n_; ++i) {
    std::vector<double>& lp = lp_[i];
    lp.resize(len);
    f.run(v_[i], lp, 0, long(len), 1);
    std::vector<double> fwd = lp;
    f.run(fwd, lp, long(len) - 1, -1, -1);
  }
  for (size_t n = pending_; n < end; ++n) {
    if (settled_ < cfg_.start_cycle) {  // stepped, not counted
      if (settled_ >= cfg_.trace_start && settled_ - cfg_.trace_start < cfg_.trace_cycles) trace_row(n, 0, 0, 0, 0);
      ++settled_;
      continue;
    }
    const double ref = ref_[n];
    double w = -1e9, w_first = 0, w_second = 0, sum = 0;
    uint32_t wi = 0;
    for (uint32_t i = 0; i < n_; ++i) {
      double v = v_[i][n], lp = lp_[i][n];
      double d = (ref - v) / ref, d2 = (ref - lp) / ref, d1 = (lp - v) / ref;
      droop_[i] = d;
      sum += d;
      if (d > sm_worst_[i]) sm_worst_[i] = d;
      max_first_ = std::max(max_first_, d1);
      max_second_ = std::max(max_second_, d2);
      track(sm_events_[i], d, d1, d2);
      if (d > w) w = d, wi = i, w_first = d1, w_second = d2;
    }
    sum_mean_droop_ += sum / n_;
    if (w > worst_) {
      worst_ = w;
      worst_sm_ = wi;
      worst_cycle_ = settled_;
      worst_snapshot_ = droop_;
    }
    size_t bin = w <= 0 ? 0 : std::min(hist_.size() - 1, size_t(w / cfg_.histogram_bin));
    ++hist_[bin];
    if (w > cfg_.margin) ++emergency_cycles_;
    track(margin_events_, w, w_first, w_second);
    if (track(split_events_, w, w_first, w_second, wi)) classify(split_events_);
    for (Events& e : level_events_) track(e, w, w_first, w_second);
    if (settled_ >= cfg_.trace_start && settled_ - cfg_.trace_start < cfg_.trace_cycles)
      trace_row(n, w, wi, w_first, w_second);
    ++settled_;
  }
  if (final) {
    pending_ = len;
    return;
  }
  // Keep kPad of settled context before the unsettled tail.
  const size_t drop = end - kPad;
  for (auto& v : v_) v.erase(v.begin(), v.begin() + long(drop));
  for (auto& p : dispatch_) p.erase(p.begin(), p.begin() + long(drop));
  ref_.erase(ref_.begin(), ref_.begin() + long(drop));
  dt_.erase(dt_.begin(), dt_.begin() + long(drop));
  amps_.erase(amps_.begin(), amps_.begin() + long(drop));
  pending_ = end - drop;
}

void DroopStats::trace_row(size_t n, double w, uint32_t wi, double first, double second) {
  auto fixed = [](const char* format, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, x);
    return std::string(buf);
  };
  CsvWriter row;
  if (trace_.empty()) {
    row << "cycle"
        << "time_ns"
        << "v_set"
        << "amps"
        << "droop"
        << "worst_sm"
        << "first_order"
        << "second_order";
    for (const char* column : {"v_sm", "v2_sm", "p_sm"})
      for (uint32_t i = 0; i < n_; ++i) row << column + std::to_string(i);
    row.end_row();
    trace_t0_ = 0;
  }
  trace_t0_ += dt_[n];
  row << uint64_t(settled_);
  row.preformatted(fixed("%.4f", trace_t0_ * 1e9)).preformatted(fixed("%.6f", ref_[n]));
  row.preformatted(fixed("%.4f", amps_[n])).preformatted(fixed("%.6f", w)) << wi;
  row.preformatted(fixed("%.6f", first)).preformatted(fixed("%.6f", second));
  for (uint32_t i = 0; i < n_; ++i) row.preformatted(fixed("%.6f", v_[i][n]));
  for (uint32_t i = 0; i < n_; ++i) row.preformatted(fixed("%.6f", lp_[i][n]));
  for (uint32_t i = 0; i < n_; ++i) row << unsigned(dispatch_[i][n]);
  row.end_row();
  trace_ += row.str();
}

nlohmann::json DroopStats::to_json() const {
  using nlohmann::json;
  json levels = json::array();
  for (const Events& e : level_events_) levels.push_back({{"threshold", e.threshold}, {"events", e.events}});
  json top = json::array();
  for (const Top& t : top_) {
    const char* cls = t.first / t.droop > cfg_.dominance    ? "first_order"
                      : t.second / t.droop > cfg_.dominance ? "second_order"
                                                            : "balanced";
    top.push_back({{"droop", t.droop},
                   {"cycle", t.cycle},
                   {"sm", t.sm},
                   {"first_order", t.first},
                   {"second_order", t.second},
                   {"class", cls}});
  }
  json sm_em = json::array();
  for (const Events& e : sm_events_) sm_em.push_back(e.events);
  return {{"cycles", settled_ - std::min(settled_, cfg_.start_cycle)},
          {"worst_droop", std::max(worst_, 0.0)},
          {"worst_sm", worst_sm_},
          {"worst_cycle", worst_cycle_},
          {"droop_by_sm_at_worst", worst_snapshot_},
          {"worst_droop_by_sm", sm_worst_},
          {"mean_droop", cycles() ? sum_mean_droop_ / double(cycles()) : 0.0},
          {"emergency_margin", cfg_.margin},
          {"emergencies", margin_events_.events},
          {"emergency_cycles", emergency_cycles_},
          {"emergencies_by_sm", sm_em},
          {"events_by_threshold", levels},
          {"histogram", {{"bin_width", cfg_.histogram_bin}, {"counts", hist_}}},
          {"split",
           {{"cutoff_hz", cfg_.split_cutoff_hz},
            {"threshold", cfg_.split_threshold},
            {"dominance", cfg_.dominance},
            {"first_order", classes_[0]},
            {"second_order", classes_[1]},
            {"balanced", classes_[2]},
            {"max_first_order", max_first_},
            {"max_second_order", max_second_},
            {"largest", top}}}};
}

}  // namespace gpupm
