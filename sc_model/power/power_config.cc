#include "power/power_config.h"

namespace gpupm {

PowerConfig parse_power_config(JsonReader& r) {
  PowerConfig c;
  auto nj = [&](const char* key, double& v) { v = r.get_double(key, 0.0, 1e6, v); };
  nj("inst_nj", c.inst_nj);
  nj("alu_nj", c.alu_nj);
  nj("sfu_nj", c.sfu_nj);
  nj("ldst_nj", c.ldst_nj);
  nj("l1_line_nj", c.l1_line_nj);
  nj("sm_busy_cycle_nj", c.sm_busy_cycle_nj);
  nj("sm_idle_cycle_nj", c.sm_idle_cycle_nj);
  nj("l2_access_nj", c.l2_access_nj);
  nj("icnt_flit_nj", c.icnt_flit_nj);
  nj("mem_cycle_nj", c.mem_cycle_nj);
  nj("dram_activate_nj", c.dram_activate_nj);
  nj("dram_read_nj", c.dram_read_nj);
  nj("dram_write_nj", c.dram_write_nj);
  c.dram_idd2n_a = r.get_double("dram_idd2n_a", 0.0, 100.0, c.dram_idd2n_a);
  c.dram_idd2n_ref_gbps = r.get_double("dram_idd2n_ref_gbps", 0.1, 100.0, c.dram_idd2n_ref_gbps);
  c.dram_idd2n_rise = r.get_double("dram_idd2n_rise", -1.0, 10.0, c.dram_idd2n_rise);
  c.dram_vdd = r.get_double("dram_vdd", 0.1, 10.0, c.dram_vdd);
  c.dram_chips = uint32_t(r.get_uint("dram_chips", 0, 1024, c.dram_chips));
  c.sm_leakage_w = r.get_double("sm_leakage_w", 0.0, 1000.0, c.sm_leakage_w);
  c.mem_leakage_w = r.get_double("mem_leakage_w", 0.0, 1000.0, c.mem_leakage_w);
  c.leakage_voltage_exponent = r.get_double("leakage_voltage_exponent", 0.0, 10.0, c.leakage_voltage_exponent);
  c.sm_reference_volts = r.get_double("sm_reference_volts", 0.0, 10.0, c.sm_reference_volts);
  c.mem_reference_volts = r.get_double("mem_reference_volts", 0.0, 10.0, c.mem_reference_volts);
  c.constant_w = r.get_double("constant_w", 0.0, 10000.0, c.constant_w);
  return c;
}

}  // namespace gpupm
