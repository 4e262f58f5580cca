#include "gpupm/sm/operand_collector.h"

#include "gpupm/common/exhaustive_switch.h"

namespace gpupm {

namespace {
// kPools counts the pools up to Mem: a new pool must enter this switch, and then this assert.
GPUPM_EXHAUSTIVE_SWITCHES_BEGIN
constexpr bool last_pool(OperandCollector::Pool p) {
  switch (p) {
    case OperandCollector::Pool::Alu:
    case OperandCollector::Pool::Sfu: return false;
    case OperandCollector::Pool::Mem: return true;
  }
  return false;
}
GPUPM_EXHAUSTIVE_SWITCHES_END
static_assert(last_pool(OperandCollector::Pool::Mem), "kPools is sized by the last pool");
}  // namespace

OperandCollector::OperandCollector(const SmConfig& cfg)
    : reads_per_cycle_(cfg.collector_reads), banks_(cfg.register_banks), booked_(cfg.register_banks) {
  for (auto& b : booked_) b.fill(0);
  units_[size_t(Pool::Alu)].free_cycle.assign(cfg.collector_units_alu, 0);
  units_[size_t(Pool::Sfu)].free_cycle.assign(cfg.collector_units_sfu, 0);
  units_[size_t(Pool::Mem)].free_cycle.assign(cfg.collector_units_mem, 0);
}

}  // namespace gpupm
