// Activity-based power model parameters (GPUWattch-style): energy per event at
// the domain's nominal voltage, leakage and constant power. configs/gpu/*.json
// carry the values with a note on where each comes from.
#pragma once

#include "gpupm/common/json_fwd.h"
#include "gpupm/common/param.h"

namespace gpupm {

struct PowerConfig {
  // SM domain, nJ per warp-level event at nominal SM voltage
  double inst_nj = 1.0;  // fetch, decode, schedule, operand collection, register file
  double alu_nj = 2.0;   // 32-lane ALU operation
  double sfu_nj = 4.0;
  double ldst_nj = 0.8;            // address generation and coalescing per memory instruction
  double l1_line_nj = 0.6;         // L1 tag + data access per 128 B line
  double sm_busy_cycle_nj = 0.5;   // clock tree and pipeline latches of an SM with work
  double sm_idle_cycle_nj = 0.15;  // clocked but empty (not gated)
  // memory domain, nJ per event at nominal memory voltage
  double l2_access_nj = 1.5;
  double icnt_flit_nj = 0.25;
  double mem_cycle_nj = 1.0;       // clock tree of interconnect, L2 and controllers, per L2 cycle
  double dram_activate_nj = 15.0;  // activate + precharge pair
  double dram_read_nj = 12.0;      // per 128 B burst
  double dram_write_nj = 13.0;
  // DRAM active standby: I_dd2n per chip at the reference data rate, +30% at 6 Gbps
  double dram_idd2n_a = 0.5;
  double dram_idd2n_ref_gbps = 3.2;
  double dram_idd2n_rise = 0.30;  // fractional rise from ref to 6 Gbps
  double dram_vdd = 1.5;          // at nominal memory voltage
  uint32_t dram_chips = 12;
  // leakage (W at nominal voltage) and constant power
  double sm_leakage_w = 2.2;  // per SM, zero when gated
  double mem_leakage_w = 8.9;
  double leakage_voltage_exponent = 1.0;  // leakage ~ (V/V0)^k
  double constant_w = 10.0;
  // The voltage each domain's energies and leakage are given at (V0 above). 0: the
  // nominal level's voltage. Set it to keep the energies where they were calibrated
  // while a level's voltage moves (a lowered guardband, docs/voltage_noise.md).
  double sm_reference_volts = 0.0, mem_reference_volts = 0.0;
};

// V0 of a domain: its reference voltage, or the nominal level's.
inline double reference_volts(const PowerConfig& p, size_t domain, double nominal_volts) {
  const double v = domain == 0 ? p.sm_reference_volts : p.mem_reference_volts;
  return v > 0 ? v : nominal_volts;
}

// Every field's name, range, unit and description (common/param.h).
void describe(ParamVisitor& v, PowerConfig& c);
PowerConfig parse_power_config(JsonReader& r);

}  // namespace gpupm
