#include "gpupm/power/power_config.h"

#include "gpupm/common/param_reader.h"

namespace gpupm {

void describe(ParamVisitor& v, PowerConfig& c) {
  auto nj = [&](const char* key, double& field, const char* description) {
    v.number(key, field, 0.0, 1e6, "nJ", description);
  };
  nj("inst_nj", c.inst_nj, "per warp instruction: fetch, decode, schedule, operands, register file");
  nj("alu_nj", c.alu_nj, "per 32-lane ALU operation");
  nj("sfu_nj", c.sfu_nj, "per SFU operation");
  nj("ldst_nj", c.ldst_nj, "per memory instruction: address generation and coalescing");
  nj("l1_line_nj", c.l1_line_nj, "per L1 line access (tag + data)");
  nj("sm_busy_cycle_nj", c.sm_busy_cycle_nj, "per cycle of an SM with work: clock tree and latches");
  nj("sm_idle_cycle_nj", c.sm_idle_cycle_nj, "per cycle of an SM clocked but empty (not gated)");
  nj("l2_access_nj", c.l2_access_nj, "per L2 access");
  nj("icnt_flit_nj", c.icnt_flit_nj, "per interconnect flit");
  nj("mem_cycle_nj", c.mem_cycle_nj, "per L2 cycle: clock tree of interconnect, L2 and controllers");
  nj("dram_activate_nj", c.dram_activate_nj, "per DRAM activate + precharge pair");
  nj("dram_read_nj", c.dram_read_nj, "per DRAM read burst (one line)");
  nj("dram_write_nj", c.dram_write_nj, "per DRAM write burst (one line)");
  v.number("dram_idd2n_a", c.dram_idd2n_a, 0.0, 100.0, "A",
           "DRAM active-standby current per chip at the reference rate");
  v.number("dram_idd2n_ref_gbps", c.dram_idd2n_ref_gbps, 0.1, 100.0, "Gbps", "data rate of dram_idd2n_a");
  v.number("dram_idd2n_rise", c.dram_idd2n_rise, -1.0, 10.0, "",
           "fractional rise of the standby current from the reference rate to 6 Gbps");
  v.number("dram_vdd", c.dram_vdd, 0.1, 10.0, "V", "DRAM supply at nominal memory voltage");
  v.integer("dram_chips", c.dram_chips, 0, 1024, "chips", "DRAM chips");
  v.number("sm_leakage_w", c.sm_leakage_w, 0.0, 1000.0, "W", "leakage per SM at nominal voltage, zero when gated");
  v.number("mem_leakage_w", c.mem_leakage_w, 0.0, 1000.0, "W", "memory-domain leakage at nominal voltage");
  v.number("leakage_voltage_exponent", c.leakage_voltage_exponent, 0.0, 10.0, "", "k in leakage ~ (V/V0)^k");
  v.number("sm_reference_volts", c.sm_reference_volts, 0.0, 10.0, "V",
           "V0 of the SM domain's energies (0: the nominal level's voltage)");
  v.number("mem_reference_volts", c.mem_reference_volts, 0.0, 10.0, "V",
           "V0 of the memory domain's energies (0: the nominal level's voltage)");
  v.number("constant_w", c.constant_w, 0.0, 10000.0, "W", "constant power");
}

PowerConfig parse_power_config(JsonReader& r) {
  PowerConfig c;
  read_params(r, c);
  return c;
}

}  // namespace gpupm
