#include "gpupm/experiment/sm_allocation/sm_allocation_queues.h"

#include "gpupm/common/rng.h"

#include <algorithm>
#include <map>
#include <optional>
#include <variant>

namespace gpupm {

namespace {

const std::vector<std::string> kClassOrder = {"MC", "M", "C", "A"};

using Members = std::map<std::string, std::vector<std::string>>;  // by class, in the profiles' order

Members members_by_class(const ProfileSet& ps) {
  Members m;
  for (const AppProfile& a : ps.apps) m[a.cls].push_back(a.name);
  return m;
}

// COUNT applications from the classes CLASSES in turn, each class's members in turn.
std::vector<std::string> take_in_turn(const Members& members, const std::vector<std::string>& classes, size_t count) {
  std::vector<std::string> present;
  for (const std::string& c : classes)
    if (members.count(c)) present.push_back(c);
  std::vector<std::string> picks;
  std::map<std::string, size_t> next;
  for (size_t i = 0; !present.empty() && picks.size() < count; ++i) {
    const std::vector<std::string>& of = members.at(present[i % present.size()]);
    size_t& k = next[present[i % present.size()]];
    picks.push_back(of[k++ % of.size()]);
  }
  return picks;
}

// PICKS in their order but for a first come, first served pair of one application
// twice, whose second swaps with the nearest later (else earlier) element that
// pairs with neither. None when an application fills more than half.
std::optional<std::vector<std::string>> pairable_order(std::vector<std::string> order) {
  std::map<std::string, size_t> count;
  for (const std::string& p : order)
    if (++count[p] * 2 > order.size()) return std::nullopt;
  auto partner = [](size_t i) { return i ^ size_t(1); };
  for (size_t i = 1; i < order.size(); i += 2) {
    if (order[i] != order[i - 1]) continue;
    const std::string& v = order[i];
    auto fits = [&](size_t j) { return j / 2 != i / 2 && order[j] != v && order[partner(j)] != v; };
    size_t j = i + 1;
    while (j < order.size() && !fits(j)) ++j;
    if (j == order.size())
      for (j = 0; j < i && !fits(j);) ++j;
    if (j == i) return std::nullopt;
    std::swap(order[i], order[j]);
  }
  return order;
}

// A and B alternating, then the rest of the longer.
std::vector<std::string> interleave(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i < a.size()) out.push_back(a[i]);
    if (i < b.size()) out.push_back(b[i]);
  }
  return out;
}

std::string count_of(size_t n, size_t of) { return std::to_string(n) + " of " + std::to_string(of); }

// The queue built, or why it cannot be.
std::variant<SmAllocationQueue, std::string> build_oriented(SmAllocationQueue q, const Members& members) {
  const size_t of_class = (q.length * 3 + 4) / 5;  // ceil(60%)
  auto it = members.find(q.oriented);
  if (it == members.end()) return "no application is measured " + q.oriented;
  std::vector<std::string> others;
  for (const std::string& c : kClassOrder)
    if (c != q.oriented) others.push_back(c);
  const std::vector<std::string> picks = take_in_turn(members, {q.oriented}, of_class);
  const std::vector<std::string> rest = take_in_turn(members, others, q.length - of_class);
  if (rest.size() < q.length - of_class) return "every application is measured " + q.oriented;
  const auto order = pairable_order(interleave(picks, rest));
  if (!order)
    return std::to_string(it->second.size()) + " application(s) measured " + q.oriented + " cannot fill " +
           count_of(of_class, q.length) + " with none more than half the queue";
  q.apps = *order;
  if (q.kind.empty()) q.kind = q.oriented + "-oriented: " + count_of(of_class, q.length) + " measured " + q.oriented;
  return q;
}

std::variant<SmAllocationQueue, std::string> build_equal(SmAllocationQueue q, const Members& members) {
  std::vector<std::string> classes;
  for (const std::string& c : kClassOrder)
    if (members.count(c)) classes.push_back(c);
  if (classes.size() < 2) return "fewer than two classes are measured";
  // Two of every class, the classes in turn: a class of one application gives it twice.
  q.apps = *pairable_order(take_in_turn(members, classes, 2 * classes.size()));
  if (q.kind.empty()) {
    q.kind = "equal: 2 of each measured class (";
    for (size_t i = 0; i < classes.size(); ++i) q.kind += (i ? ", " : "") + classes[i];
    q.kind += ")";
  }
  return q;
}

// `length` draws from every application, each redrawn when it would fill more than
// half the queue or pair with itself.
std::variant<SmAllocationQueue, std::string> build_random(SmAllocationQueue q, const ProfileSet& ps) {
  if (ps.apps.size() < 2) return "fewer than two applications";
  Rng rng(q.random_seed);
  std::map<std::string, size_t> count;
  for (int draws = 0; q.apps.size() < q.length; ++draws) {
    if (draws == 100000) return "no draw fills it";  // cannot happen with two applications or more
    const std::string& a = ps.apps[rng.below(ps.apps.size())].name;
    const bool pairs_with_itself = q.apps.size() % 2 == 1 && q.apps.back() == a;
    if (pairs_with_itself || (count[a] + 1) * 2 > q.length) continue;
    ++count[a];
    q.apps.push_back(a);
  }
  if (q.kind.empty()) q.kind = "random mix, seed " + std::to_string(q.random_seed);
  return q;
}

std::variant<SmAllocationQueue, std::string> build_one(const SmAllocationQueue& q, const Members& members,
                                                       const ProfileSet& profiles) {
  if (!q.oriented.empty()) return build_oriented(q, members);
  if (q.equal) return build_equal(q, members);
  if (q.random_seed > 0) return build_random(q, profiles);
  return q;  // as written
}

}  // namespace

BuiltQueues build_queues(const std::vector<SmAllocationQueue>& written, const ProfileSet& profiles) {
  const Members members = members_by_class(profiles);
  BuiltQueues out;
  for (const SmAllocationQueue& q : written) {
    const std::variant<SmAllocationQueue, std::string> built = build_one(q, members, profiles);
    if (auto* why = std::get_if<std::string>(&built)) out.unbuilt.push_back(q.name + ": " + *why);
    else out.queues.push_back(std::get<SmAllocationQueue>(built));
  }
  return out;
}

}  // namespace gpupm
