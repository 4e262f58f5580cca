// The oracle's search space and objectives (sc_model/policy/shared/oracle/oracle_search.h).
#include "gpupm/policy/shared/oracle/oracle_search.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

OracleSpace parse(const Json& doc) {
  JsonReader r(doc, "exp.json", "oracles[0]");
  OracleSpace s = parse_oracle_space(r);
  r.finish();
  return s;
}

TEST(CoreShutdownOracle, AxesAreDataAndEnumerateTheProduct) {
  OracleSpace s = parse({{"name", "o"},
                         {"objective", {{"kind", "min_energy"}, {"max_loss", 0.02}}},
                         {"axes", {{"sms", {{"from", 4}, {"to", 12}, {"step", 4}}}, {"sm_level", {"s5", "s6"}}}}});
  auto pts = s.points();
  ASSERT_EQ(pts.size(), 6u);
  EXPECT_EQ(point_label(pts[0]), "sms=4,sm_level=s5");
  EXPECT_EQ(point_label(pts[5]), "sms=12,sm_level=s6");
  EXPECT_EQ(point_args(pts[1]), (std::vector<std::string>{"--policy", "static-point", "--set", "policy.sms=4", "--set",
                                                          "policy.sm_level=s6"}));
  OracleSpace t = parse({{"name", "o"},
                         {"objective", {{"kind", "min_ed2p"}}},
                         {"axes", {{"sms", {{"from", 1}, {"to", 32}, {"step", 2}}}}}});
  ASSERT_EQ(t.points().size(), 17u);  // 1, 3, ..., 31 and the end point 32
  EXPECT_EQ(point_label(t.points().back()), "sms=32");
  EXPECT_THROW(parse({{"name", "o"}, {"objective", {{"kind", "fastest"}}}, {"axes", {{"sms", {1}}}}}), InputError);
  EXPECT_THROW(parse({{"name", "o"}, {"objective", Json::object()}, {"axes", {{"voltage", {1}}}}}), InputError);
}

TEST(CoreShutdownOracle, ObjectivesPickTheRightPoint) {
  OracleOutcome base{1.0, 10.0};
  std::vector<OracleOutcome> xs = {{1.00, 10.0}, {1.015, 7.0}, {1.05, 5.0}, {0.80, 8.0}, {1.3, 4.5}};
  OracleObjective e{"min_energy", 0.02};
  EXPECT_EQ(oracle_best(e, base, xs), 1);  // 5.0 and 4.5 lose more than 2%
  OracleObjective e10{"min_energy", 0.10};
  EXPECT_EQ(oracle_best(e10, base, xs), 2);
  OracleObjective d{"min_ed2p", 0};
  EXPECT_EQ(oracle_best(d, base, xs), 3);  // 8 x 0.64 = 5.12 < 5 x 1.1025, 7 x 1.03, 4.5 x 1.69
  OracleObjective w{"max_perf_per_w", 0};
  EXPECT_EQ(oracle_best(w, base, xs), 4);
  EXPECT_EQ(oracle_best(e, base, {{1.5, 1.0}}), -1);
}

}  // namespace
}  // namespace gpupm
