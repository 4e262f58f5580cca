// One SM's hold value in the stagger unit: step x m (8 x 5 bits, at most
// 255 x 31 = 7905, 14-bit result). A module of its own so that
// scripts/rtl/synth.py can keep it as a hierarchy boundary: the
// pre/post-synthesis equivalence check then proves each small multiplier at
// its ports instead of fifteen of them inside one induction.
module stagger_mult (
  input  logic [7:0]  step_i,
  input  logic [4:0]  mult_i,
  output logic [13:0] hold_o
);

  assign hold_o = 14'({5'd0, step_i} * {8'd0, mult_i});

endmodule
