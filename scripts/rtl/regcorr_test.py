#!/usr/bin/env python3
"""regcorr.py on small designs: the proof passes where the gate differs from the gold only in structure
(and in a register kept as two copies), and fails, naming the register, where one next-state bit differs;
and synth.py's guard against a netlist that reads x constants (which the miter makes 0).

Each case builds the miter as synth.py's miter_cmds does (miter -equiv -flatten, async2sync, every
flip-flop initially 0, write_aiger -zinit -vmap) from two RTL modules, so it needs yosys and yosys-abc
(the Debian yosys package) but no Liberty file. Run by ctest (rtl_regcorr), or alone."""

import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import regcorr  # noqa: E402
import synth  # noqa: E402

GOLD = """
module counter (input logic clk_i, input logic rst_ni, input logic en_i, input logic [3:0] step_i,
                output logic [7:0] count_o, output logic wrap_o);
  logic [7:0] count_q;
  logic wrap_q;
  (* keep *) logic [1:0] wrap_view;  // the register as its two readers see it (the gate keeps two copies)
  assign wrap_view = {wrap_q, wrap_q};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      wrap_q <= 1'b0;
    end else if (en_i) begin
      count_q <= count_q + {4'd0, step_i};
      wrap_q <= ({1'b0, count_q} + {5'd0, step_i}) > 9'd255;
    end
  end
  assign count_o = count_q;
  assign wrap_o = wrap_q;
endmodule
"""

# The same behaviour in another structure: the sum as two nibbles with an explicit carry, the enable as a
# mux on the next state, and wrap_q kept in two copies that both drive wrap_o (paired with the gold's one
# register through wrap_view, the name both designs give the two readers' view).
GATE = """
module counter (input logic clk_i, input logic rst_ni, input logic en_i, input logic [3:0] step_i,
                output logic [7:0] count_o, output logic wrap_o);
  logic [7:0] count_q;
  logic wrap_q, wrap_copy_q;
  (* keep *) logic [1:0] wrap_view;
  assign wrap_view = {wrap_copy_q, wrap_q};
  logic [4:0] low;
  logic [4:0] high;
  assign low = {1'b0, count_q[3:0]} + {1'b0, step_i};
  assign high = {1'b0, count_q[7:4]} + {4'd0, low[4]};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      wrap_q <= 1'b0;
      wrap_copy_q <= 1'b0;
    end else begin
      count_q <= en_i ? {high[3:0], low[3:0]} : count_q;
      wrap_q <= en_i ? high[4] : wrap_q;
      wrap_copy_q <= en_i ? high[4] : wrap_copy_q;
    end
  end
  assign count_o = count_q;
  assign wrap_o = wrap_view[0] & wrap_view[1];
endmodule
"""

# One next-state bit wrong: count bit 5 ignores the carry out of the low nibble on every other value.
PLANTED = GATE.replace("{high[3:0], low[3:0]}", "{high[3:2], high[1] ^ (low[4] & count_q[0]), high[0], low[3:0]}")


def prove(gold, gate):
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "gold.sv").write_text(gold)
        (work / "gate.sv").write_text(gate)
        # synth.py's miter flow from the stash of each design on
        miter = synth.miter_lowering("-vmap miter.vmap")
        script = ("read_verilog -sv gold.sv\nproc\nflatten\nrename counter gold\ndesign -stash gold\n"
                  "read_verilog -sv gate.sv\nproc\nflatten\nrename counter gate\ndesign -stash gate\n"
                  "design -copy-from gold -as gold gold\ndesign -copy-from gate -as gate gate\n" + miter)
        (work / "miter.ys").write_text(script)
        subprocess.run(["yosys", "-q", "miter.ys"], cwd=work, check=True, stdout=subprocess.DEVNULL)
        figures = regcorr.build(work / "miter.aig", work / "miter.vmap", work / "check.aig")
        log = subprocess.run(["yosys-abc", "-c", f"read_aiger check.aig; {synth.ABC_REGCORR}"], cwd=work,
                             check=True, capture_output=True, text=True).stdout
        return figures, log


class RegcorrTest(unittest.TestCase):
    def test_restructured_gate_with_a_copied_register_is_proven(self):
        figures, log = prove(GOLD, GATE)
        self.assertRegex(log, r"(?m)^UNSATISFIABLE")
        self.assertEqual(figures["latches"], 8 + 1 + 8 + 2)
        self.assertEqual(figures["unpaired"], 0)
        self.assertEqual(figures["classes"], 9)  # count_q's 8 bits, and wrap_q with its copy

    def test_one_wrong_next_state_bit_fails_and_is_named(self):
        figures, log = prove(GOLD, PLANTED)
        failing = int(re.search(r"(?m)^SATISFIABLE \(output = (\d+)\)", log).group(1))
        self.assertEqual(figures["labels"][failing], "next state of count_q[5]")

    def test_x_constants_count_only_where_a_cell_reads_them(self):
        netlist = ("  wire [2:0] \\f$func$.grp ;\n  wire a;\n  assign \\f$func$.grp  = 3'hx;\n"
                   "  AND2X2 _1_ (\n    .A(a),\n    .B(b),\n    .Y(y)\n  );\n")
        self.assertEqual(synth.x_driven_wires_in_use(netlist), [])
        read = netlist.replace(".B(b)", ".B(\\f$func$.grp [1])")
        self.assertEqual(synth.x_driven_wires_in_use(read), ["\\f$func$.grp"])


if __name__ == "__main__":
    unittest.main()
