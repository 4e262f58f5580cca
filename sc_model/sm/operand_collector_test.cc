// OperandCollector in plain C++: collector units held while their sources are read,
// one access per bank and cycle, and how many sources a unit reads in one cycle.
#include "gpupm/sm/operand_collector.h"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>

namespace gpupm {
namespace {

using Pool = OperandCollector::Pool;

SmConfig one_alu_unit(uint32_t reads) {
  SmConfig cfg;
  cfg.collector_units_alu = 1;
  cfg.collector_reads = reads;
  return cfg;
}

// Issued at 10, the unit is taken at 11 and reads from 12: three sources in three
// different banks take 3 cycles one at a time, 1 with three reads a cycle.
TEST(OperandCollectorTest, AUnitReadsAsManySourcesACycleAsConfigured) {
  const std::array<uint16_t, 3> regs{1, 2, 3};
  for (uint32_t reads : {1u, 3u}) {
    const SmConfig cfg = one_alu_unit(reads);
    OperandCollector oc(cfg);
    EXPECT_EQ(oc.collect(Pool::Alu, 10, 0, regs.data(), 3), 0u) << reads;
    const uint64_t dispatch = reads == 1 ? 15 : 13;  // the cycle after the last read
    EXPECT_EQ(oc.issue_ready(Pool::Alu), dispatch - 1) << reads;
  }
}

// Two sources in one bank (registers 1 and 17 of 16 banks) cannot be read in the same
// cycle, however many reads a unit may make: the second waits a cycle.
TEST(OperandCollectorTest, SourcesInOneBankAreReadInTurn) {
  const std::array<uint16_t, 3> regs{1, 17, 2};
  const SmConfig cfg = one_alu_unit(3);
  OperandCollector oc(cfg);
  EXPECT_EQ(oc.collect(Pool::Alu, 10, 0, regs.data(), 3), 1u);  // 1 and 2 at 12, 17 at 13
  EXPECT_EQ(oc.issue_ready(Pool::Alu), 13u);
}

// A bank booked by another unit's read, or by a write-back, holds a read back.
TEST(OperandCollectorTest, ABankTakenByAnotherAccessDelaysTheRead) {
  SmConfig cfg = one_alu_unit(3);
  cfg.collector_units_alu = 2;
  OperandCollector oc(cfg);
  const std::array<uint16_t, 3> first{1, 2, 3};
  const std::array<uint16_t, 3> second{4, 5, 17};  // 17 is bank 1, read by the first unit at 12
  oc.write_back(12, 0, 4);                         // bank 4 at 12
  EXPECT_EQ(oc.collect(Pool::Alu, 10, 0, first.data(), 3), 0u);
  EXPECT_EQ(oc.collect(Pool::Alu, 10, 0, second.data(), 3), 1u);  // 5 at 12, 4 and 17 at 13
}

// Units free out of issue order (a 3-source read outlasts later 1-source ones): the
// pool still offers its earliest-free unit, and refuses once every unit is held.
TEST(OperandCollectorTest, ThePoolOffersItsEarliestFreeUnitWhateverTheOrderTheyFree) {
  SmConfig cfg = one_alu_unit(1);
  cfg.collector_units_alu = 3;
  OperandCollector oc(cfg);
  const std::array<uint16_t, 3> three{1, 2, 3};
  const std::array<uint16_t, 4> singles{4, 5, 6, 7};
  EXPECT_EQ(oc.collect(Pool::Alu, 10, 0, three.data(), 3), 0u);  // dispatches at 15
  EXPECT_EQ(oc.collect(Pool::Alu, 10, 0, &singles[0], 1), 0u);   // at 13
  EXPECT_EQ(oc.collect(Pool::Alu, 10, 0, &singles[1], 1), 0u);   // at 13
  EXPECT_EQ(oc.issue_ready(Pool::Alu), 12u);
  EXPECT_EQ(oc.collect(Pool::Alu, 12, 0, &singles[2], 1), 0u);  // a 13 unit, dispatches at 15
  EXPECT_EQ(oc.issue_ready(Pool::Alu), 12u);                    // the other 13 unit
  EXPECT_EQ(oc.collect(Pool::Alu, 12, 0, &singles[3], 1), 0u);  // dispatches at 15
  EXPECT_EQ(oc.issue_ready(Pool::Alu), 14u);                    // all three free at 15
  EXPECT_THROW(oc.collect(Pool::Alu, 12, 0, &singles[0], 1), std::logic_error);
}

}  // namespace
}  // namespace gpupm
