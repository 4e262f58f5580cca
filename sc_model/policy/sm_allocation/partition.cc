#include "gpupm/policy/sm_allocation/partition.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpupm {

PartitionInput partition_input(const AppProfile& app1, const AppProfile& app2, uint32_t k_tot, uint32_t step) {
  PartitionInput in;
  in.opt1 = app1.opt;
  in.opt2 = app2.opt;
  in.pow_ef1 = app1.at(app1.opt).pow_ef;
  in.pow_ef2 = app2.at(app2.opt).pow_ef;
  in.k_tot = k_tot;
  in.step = step;
  return in;
}

int partition_case(const PartitionInput& in) { return in.pow_ef1 > in.pow_ef2 ? 1 : 2; }

Split partition(const PartitionInput& in) {
  const int c = partition_case(in);
  const uint32_t K = in.k_tot, step = std::max<uint32_t>(1, in.step);
  Split s{in.opt1, in.opt2};
  if (s.k1 + s.k2 <= K) return s;  // both at their opt; the surplus is left over
  // The prose: kappa starts at opt "or lower" - an opt of K first drops to K - step.
  if (in.opt1 >= K) s.k1 = K - step;
  if (in.opt2 >= K) s.k2 = K - step;
  while (s.k1 + s.k2 > K) {
    uint32_t& yield = c == 1 ? s.k2 : s.k1;  // the less power-efficient application
    uint32_t& keep = c == 1 ? s.k1 : s.k2;
    // Guard for opts that are not multiples of step (profiles always are): the
    // yielding app keeps at least `step` SMs, then the favoured one gives way.
    if (yield > step) yield = std::max(step, yield - step);
    else if (keep > step) keep = std::max(step, keep - step);
    else break;
  }
  return s;
}

Split partition_as_printed(const PartitionInput& in) {
  const int c = partition_case(in);  // lines 4-8
  const uint32_t K = in.k_tot, step = in.step;
  Split s{0, 0};                 // lines 2-3: kappa_App1 = kappa_App2 = 0
  if (in.opt1 + in.opt2 <= K) {  // lines 9-11
    s.k1 = in.opt1;
    s.k2 = in.opt2;
  } else {
    if (in.opt1 == K) s.k1 = K - step;  // lines 13-16
    if (in.opt2 == K) s.k2 = K - step;
    while (s.k1 + s.k2 > K) {  // lines 17-21
      if (c == 1) s.k2 -= step;
      else s.k1 -= step;
    }
  }
  return s;
}

uint32_t fewest_sms_within(const AppProfile& a, uint32_t cap, double loss) {
  double best = 0;
  for (const ProfilePoint& p : a.points)
    if (p.n <= cap) best = std::max(best, p.ipc);
  for (const ProfilePoint& p : a.points)  // in increasing n
    if (p.n <= cap && p.ipc >= (1.0 - loss) * best) return p.n;
  return a.points.empty() ? 0 : a.points.front().n;
}

Split even_split(uint32_t k_tot) { return {k_tot / 2, k_tot - k_tot / 2}; }

Split aging_power_split(const AppProfile& app1, const AppProfile& app2, uint32_t k_tot, double margin) {
  Split half = even_split(k_tot);
  return {fewest_sms_within(app1, half.k1, margin), fewest_sms_within(app2, half.k2, margin)};
}

Split perf_aging_split(const AppProfile& app1, const AppProfile& app2, uint32_t k_tot, uint32_t step, double margin,
                       double max_cut) {
  const uint32_t cap = k_tot - step;  // the co-running cap
  Split s{fewest_sms_within(app1, cap, margin), fewest_sms_within(app2, cap, margin)};
  if (s.k1 + s.k2 <= k_tot) return s;
  const AppProfile* app[2] = {&app1, &app2};
  uint32_t* k[2] = {&s.k1, &s.k2};
  uint32_t floor[2] = {fewest_sms_within(app1, cap, max_cut), fewest_sms_within(app2, cap, max_cut)};
  double best[2] = {0, 0};
  for (int i = 0; i < 2; ++i)
    for (const ProfilePoint& p : app[i]->points)
      if (p.n <= cap) best[i] = std::max(best[i], p.ipc);
  // Both give up SMs, one step at a time, the app that keeps more of its best IPC first.
  while (s.k1 + s.k2 > k_tot) {
    double kept[2] = {-1, -1};
    for (int i = 0; i < 2; ++i)
      if (*k[i] >= floor[i] + step && best[i] > 0) kept[i] = app[i]->at(*k[i] - step).ipc / best[i];
    if (kept[0] < 0 && kept[1] < 0) break;
    int i = kept[0] > kept[1] || (kept[0] == kept[1] && s.k1 >= s.k2) ? 0 : 1;
    *k[i] -= step;
  }
  if (s.k1 + s.k2 > k_tot) {  // both at their 20% floor and still too many: shares in proportion
    double share = double(s.k1) / double(s.k1 + s.k2);
    uint32_t k1 = uint32_t(std::lround(share * double(k_tot) / double(step))) * step;
    s.k1 = std::clamp<uint32_t>(k1, step, k_tot - step);
    s.k2 = k_tot - s.k1;
  }
  return s;
}

SmraMove smra_decide(const SmraWindow& w, uint32_t step, double imbalance) {
  SmraMove m;
  auto can_give = [&](int i) { return w.sms[i] >= 2 * step; };
  for (int i = 0; i < 2; ++i)
    if (w.idle[i] >= step && w.idle[1 - i] == 0 && can_give(i)) return {i, step};
  if (w.sms[0] == 0 || w.sms[1] == 0) return m;
  double per_sm[2] = {w.ipc[0] / w.sms[0], w.ipc[1] / w.sms[1]};
  int lo = per_sm[0] < per_sm[1] ? 0 : 1;
  if (per_sm[lo] < (1.0 - imbalance) * per_sm[1 - lo] && can_give(lo)) return {lo, step};
  return m;
}

namespace {
void match(std::vector<int>& partner, size_t n, const std::function<double(size_t, size_t)>& cost, double so_far,
           double& best, std::vector<int>& best_partner) {
  size_t i = 0;
  while (i < n && partner[i] >= 0) ++i;
  if (i == n) {
    if (so_far < best) {
      best = so_far;
      best_partner = partner;
    }
    return;
  }
  for (size_t j = i + 1; j < n; ++j) {
    if (partner[j] >= 0) continue;
    partner[i] = int(j);
    partner[j] = int(i);
    match(partner, n, cost, so_far + cost(i, j), best, best_partner);
    partner[i] = partner[j] = -1;
  }
}
}  // namespace

std::vector<std::pair<size_t, size_t>> min_cost_pairs(size_t n, const std::function<double(size_t, size_t)>& cost) {
  std::vector<int> partner(n, -1), best_partner;
  double best = std::numeric_limits<double>::infinity();
  match(partner, n, cost, 0.0, best, best_partner);
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i < best_partner.size(); ++i)
    if (best_partner[i] > int(i)) pairs.push_back({i, size_t(best_partner[i])});
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const auto& a, const auto& b) { return cost(a.first, a.second) < cost(b.first, b.second); });
  return pairs;
}

std::vector<std::pair<size_t, size_t>> fcfs_pairs(size_t n) {
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i + 1 < n; i += 2) pairs.push_back({i, i + 1});
  return pairs;
}

double pair_slowdown(const AppProfile& a, const AppProfile& b, uint32_t k_tot, uint32_t step) {
  const uint32_t half = std::max(step, k_tot / 2 / step * step);
  const ProfilePoint &a_half = a.at(half), &b_half = b.at(half);
  double mb_max = 0;
  for (const AppProfile* x : {&a, &b})
    for (const ProfilePoint& p : x->points) mb_max = std::max(mb_max, p.dram_gbps);
  double contention = mb_max > 0 ? std::max(1.0, (a_half.dram_gbps + b_half.dram_gbps) / mb_max) : 1.0;
  auto slowdown = [&](const AppProfile& x, const ProfilePoint& h) {
    return h.ipc > 0 ? x.at(k_tot).ipc / h.ipc * contention : std::numeric_limits<double>::infinity();
  };
  return slowdown(a, a_half) + slowdown(b, b_half);
}

}  // namespace gpupm
