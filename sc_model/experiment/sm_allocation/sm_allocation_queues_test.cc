// The queues built from measured classes: oriented (ceil 60% of one class),
// equal, random; every built queue pairable first come, first served.
#include "gpupm/experiment/sm_allocation/sm_allocation_queues.h"

#include <gtest/gtest.h>

#include <map>

namespace gpupm {
namespace {

// Applications named by their class: a1, a2 (A), m1 (M), c1, c2, c3 (C), x1, x2 (MC).
ProfileSet profiles_of(const std::vector<std::pair<std::string, std::string>>& apps) {
  ProfileSet ps;
  for (const auto& [name, cls] : apps) {
    AppProfile p;
    p.name = name;
    p.cls = cls;
    ps.apps.push_back(p);
  }
  return ps;
}

const ProfileSet kSuite = profiles_of(
    {{"a1", "A"}, {"m1", "M"}, {"c1", "C"}, {"x1", "MC"}, {"a2", "A"}, {"c2", "C"}, {"c3", "C"}, {"x2", "MC"}});

std::map<std::string, size_t> counts(const std::vector<std::string>& apps) {
  std::map<std::string, size_t> n;
  for (const std::string& a : apps) ++n[a];
  return n;
}

// No application more than half the queue, no first come, first served pair of one application.
void expect_pairable(const SmAllocationQueue& q) {
  ASSERT_EQ(q.apps.size() % 2, 0u) << q.name;
  for (const auto& [app, n] : counts(q.apps)) EXPECT_LE(n * 2, q.apps.size()) << q.name << " " << app;
  for (size_t i = 0; i + 1 < q.apps.size(); i += 2) EXPECT_NE(q.apps[i], q.apps[i + 1]) << q.name << " pair " << i;
}

size_t of_class(const SmAllocationQueue& q, const std::string& cls) {
  size_t n = 0;
  for (const std::string& a : q.apps) n += kSuite.find(a)->cls == cls;
  return n;
}

SmAllocationQueue oriented(const std::string& cls, uint32_t length = 6) {
  SmAllocationQueue q;
  q.name = cls;
  q.oriented = cls;
  q.length = length;
  return q;
}

TEST(SmAllocationQueues, AnOrientedQueueIsSixtyPercentItsClassAndTheRestFromTheOthersInTurn) {
  const BuiltQueues b = build_queues({oriented("C"), oriented("MC", 10)}, kSuite);
  ASSERT_TRUE(b.unbuilt.empty());
  ASSERT_EQ(b.queues.size(), 2u);
  EXPECT_EQ(of_class(b.queues[0], "C"), 4u);  // ceil(3.6)
  EXPECT_EQ(of_class(b.queues[1], "MC"), 6u);
  // C's programs in turn interleaved with the others (MC, then M) in turn.
  EXPECT_EQ(b.queues[0].apps, (std::vector<std::string>{"c1", "x1", "c2", "m1", "c3", "c1"}));
  EXPECT_EQ(b.queues[0].kind, "C-oriented: 4 of 6 measured C");
  for (const SmAllocationQueue& q : b.queues) expect_pairable(q);
}

TEST(SmAllocationQueues, AClassOfOneApplicationCannotOrientAQueue) {
  const BuiltQueues b = build_queues({oriented("M"), oriented("A")}, kSuite);
  ASSERT_EQ(b.queues.size(), 1u);
  EXPECT_EQ(b.queues[0].name, "A");
  ASSERT_EQ(b.unbuilt.size(), 1u);
  EXPECT_EQ(b.unbuilt[0], "M: 1 application(s) measured M cannot fill 4 of 6 with none more than half the queue");
  const BuiltQueues none = build_queues({oriented("A")}, profiles_of({{"m1", "M"}, {"c1", "C"}}));
  EXPECT_EQ(none.unbuilt, std::vector<std::string>{"A: no application is measured A"});
  const BuiltQueues all_a = build_queues({oriented("A")}, profiles_of({{"a1", "A"}, {"a2", "A"}}));
  EXPECT_EQ(all_a.unbuilt, std::vector<std::string>{"A: every application is measured A"});
  SmAllocationQueue equal;
  equal.name = "E";
  equal.equal = true;
  EXPECT_EQ(build_queues({equal}, profiles_of({{"a1", "A"}, {"a2", "A"}})).unbuilt,
            std::vector<std::string>{"E: fewer than two classes are measured"});
}

TEST(SmAllocationQueues, AnEqualQueueTakesTwoOfEveryClassMeasured) {
  SmAllocationQueue q;
  q.name = "Equal";
  q.equal = true;
  const BuiltQueues b = build_queues({q}, kSuite);
  ASSERT_EQ(b.queues.size(), 1u);
  for (const char* cls : {"A", "M", "C", "MC"}) EXPECT_EQ(of_class(b.queues[0], cls), 2u) << cls;
  // The classes in turn; M's one program twice.
  EXPECT_EQ(b.queues[0].apps, (std::vector<std::string>{"x1", "m1", "c1", "a1", "x2", "m1", "c2", "a2"}));
  EXPECT_EQ(b.queues[0].kind, "equal: 2 of each measured class (MC, M, C, A)");
  expect_pairable(b.queues[0]);
}

TEST(SmAllocationQueues, ARandomQueueIsItsSeedsDrawAndWrittenQueuesStayAsWritten) {
  SmAllocationQueue r1, r1_again, r2, written;
  r1.name = r1_again.name = "R1";
  r1.random_seed = r1_again.random_seed = 1;
  r2.name = "R2";
  r2.random_seed = 2;
  written.name = "W";
  written.apps = {"c3", "c3"};  // as written: written queues are checked where they are read
  const BuiltQueues b = build_queues({r1, r2, written, r1_again}, kSuite);
  ASSERT_EQ(b.queues.size(), 4u);
  EXPECT_EQ(b.queues[0].apps, b.queues[3].apps);
  EXPECT_NE(b.queues[0].apps, b.queues[1].apps);  // same length, another seed
  EXPECT_EQ(b.queues[0].apps,
            (std::vector<std::string>{"c2", "a2", "a2", "x1", "c2", "m1"}));  // the seed's draw, on every platform
  EXPECT_EQ(b.queues[2].apps, written.apps);
  expect_pairable(b.queues[0]);
  expect_pairable(b.queues[1]);
  EXPECT_EQ(b.queues[0].kind, "random mix, seed 1");
  r2.length = 14;  // the longest: the pairing tries all its matchings
  EXPECT_EQ(build_queues({r2}, kSuite).queues.at(0).apps.size(), 14u);
}

}  // namespace
}  // namespace gpupm
