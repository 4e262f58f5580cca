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

// PICKS in an arrival order whose first come, first served pairs never hold one
// application twice: each pair takes the two applications with the most copies
// left (ties: the earlier in PICKS). None when one fills more than half.
std::optional<std::vector<std::string>> pairable_order(const std::vector<std::string>& picks) {
  std::vector<std::pair<std::string, size_t>> left;  // first-appearance order
  for (const std::string& p : picks) {
    auto it = std::find_if(left.begin(), left.end(), [&](const auto& x) { return x.first == p; });
    if (it == left.end()) left.push_back({p, 1});
    else ++it->second;
  }
  for (const auto& [app, n] : left)
    if (n * 2 > picks.size()) return std::nullopt;
  std::vector<std::string> order;
  while (order.size() < picks.size()) {
    size_t first = left.size(), second = left.size();
    for (size_t i = 0; i < left.size(); ++i) {
      if (left[i].second == 0) continue;
      if (first == left.size() || left[i].second > left[first].second) {
        second = first;
        first = i;
      } else if (second == left.size() || left[i].second > left[second].second) {
        second = i;
      }
    }
    if (second == left.size()) return std::nullopt;  // an odd count: cannot happen for an even queue
    order.push_back(left[first].first);
    order.push_back(left[second].first);
    --left[first].second;
    --left[second].second;
  }
  return order;
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
  std::vector<std::string> picks = take_in_turn(members, {q.oriented}, of_class);
  const std::vector<std::string> rest = take_in_turn(members, others, q.length - of_class);
  if (rest.size() < q.length - of_class) return "every application is measured " + q.oriented;
  picks.insert(picks.end(), rest.begin(), rest.end());
  const auto order = pairable_order(picks);
  if (!order)
    return std::to_string(it->second.size()) + " application(s) measured " + q.oriented + " cannot fill " +
           count_of(of_class, q.length) + " with none more than half the queue";
  q.apps = *order;
  if (q.kind.empty()) q.kind = q.oriented + "-oriented: " + count_of(of_class, q.length) + " measured " + q.oriented;
  return q;
}

std::variant<SmAllocationQueue, std::string> build_equal(SmAllocationQueue q, const Members& members) {
  std::vector<std::string> picks, classes;
  for (const std::string& c : kClassOrder) {
    auto it = members.find(c);
    if (it == members.end()) continue;
    classes.push_back(c);
    for (size_t k = 0; k < 2; ++k) picks.push_back(it->second[k % it->second.size()]);
  }
  const auto order = pairable_order(picks);
  if (!order || classes.size() < 2) return "fewer than two classes are measured";
  q.apps = *order;
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

}  // namespace

BuiltQueues build_queues(const std::vector<SmAllocationQueue>& written, const ProfileSet& profiles) {
  const Members members = members_by_class(profiles);
  BuiltQueues out;
  for (const SmAllocationQueue& q : written) {
    std::variant<SmAllocationQueue, std::string> built = q;
    if (!q.to_build()) built = q;
    else if (!q.oriented.empty()) built = build_oriented(q, members);
    else if (q.equal) built = build_equal(q, members);
    else built = build_random(q, profiles);
    if (auto* why = std::get_if<std::string>(&built)) out.unbuilt.push_back(q.name + ": " + *why);
    else out.queues.push_back(std::get<SmAllocationQueue>(built));
  }
  return out;
}

}  // namespace gpupm
