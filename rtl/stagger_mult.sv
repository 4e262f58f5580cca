// One SM's hold value in the stagger unit: step x m (8 x MULT_W bits; 5-bit
// ranks up to 32 SMs, at most 255 x 31 = 7905; 6-bit ranks up to 64 SMs, at
// most 255 x 63 = 16065; a 14-bit result either way). A module of its own so that
// scripts/rtl/synth.py can keep it as a hierarchy boundary: the
// pre/post-synthesis equivalence check then proves each small multiplier at
// its ports instead of fifteen of them inside one induction.
module stagger_mult #(
  parameter int unsigned MULT_W = 5  // 1..6
) (
  input  logic [7:0]        step_i,
  input  logic [MULT_W-1:0] mult_i,
  output logic [13:0]       hold_o
);

  if (MULT_W < 1 || MULT_W > 6) begin : gen_bad_mult_w
    $error("stagger_mult: MULT_W must be 1..6");
  end

  // 13-bit operands (as before MULT_W existed) while the product fits them, 14 with 6-bit ranks.
  localparam int unsigned ProdW = (MULT_W > 5) ? 14 : 13;

  assign hold_o = 14'({(ProdW - 8)'(0), step_i} * {(ProdW - MULT_W)'(0), mult_i});

endmodule
