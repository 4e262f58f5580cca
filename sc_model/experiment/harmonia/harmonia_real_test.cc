// The Harmonia real suite's measured categories: the paper's sensitivity on a
// grid step, and the class the claims read from a kernel's bins.
#include "gpupm/experiment/harmonia/harmonia_real.h"

#include <gtest/gtest.h>

namespace gpupm {
namespace {

TEST(HarmoniaRealCategory, SensitivityIsPerformanceLostOverTunableCut) {
  // Run time inversely proportional to the clock: 1; unchanged: 0; half as sensitive: 0.5.
  EXPECT_NEAR(measured_sensitivity(1.0, 1.0 / 0.7, 1000, 700), 1.0, 1e-12);
  EXPECT_NEAR(measured_sensitivity(2.0, 2.0, 1375, 925), 0.0, 1e-12);
  EXPECT_NEAR(measured_sensitivity(1.0, 1.0 / 0.85, 1000, 700), 0.5, 1e-12);
  EXPECT_EQ(measured_sensitivity(1.0, 0.0, 1000, 700), 0.0);  // no run at the lower point
}

TEST(HarmoniaRealCategory, ClassFromTheBins) {
  EXPECT_EQ(harmonia_measured_class("HIGH", "LOW", false), "H-COMP");
  EXPECT_EQ(harmonia_measured_class("HIGH", "MED", false), "H-MIXED");
  EXPECT_EQ(harmonia_measured_class("MED", "HIGH", false), "H-STREAM");
  EXPECT_EQ(harmonia_measured_class("HIGH", "HIGH", false), "H-MIXED");
  EXPECT_EQ(harmonia_measured_class("LOW", "MED", false), "H-LATENCY");
  EXPECT_EQ(harmonia_measured_class("MED", "LOW", true), "H-LATENCY + THRASH");
}

}  // namespace
}  // namespace gpupm
