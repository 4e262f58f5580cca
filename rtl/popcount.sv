// Population count of a WIDTH-bit vector (combinational): byte counts
// (popcount8), then their sum. Yosys's alumacc/maccmap turn each
// accumulation loop into one multi-operand adder, so the loops cost no depth.
// The byte boundary is also where scripts/rtl/synth.py keeps hierarchy, which
// gives the pre/post-synthesis equivalence check its cut points (a flat 48-bit
// popcount against its ABC-restructured netlist is out of reach for SAT).
// Parameters (checked at elaboration): WIDTH >= 1, CNT_W >= 1. A CNT_W below
// $clog2(WIDTH + 1) keeps the count's low bits: for callers that know fewer
// bits can be set (the stagger unit's ranks: at most N_SMS - 1 of N_SMS).
module popcount #(
  parameter int unsigned WIDTH = 48,
  parameter int unsigned CNT_W = $clog2(WIDTH + 1)
) (
  input  logic [WIDTH-1:0] bits_i,
  output logic [CNT_W-1:0] count_o
);

  if (WIDTH < 1 || CNT_W < 1) begin : gen_bad_width
    $error("popcount: WIDTH and CNT_W must be at least 1");
  end

  localparam int unsigned NumBytes = (WIDTH + 7) / 8;

  logic [8*NumBytes-1:0] padded;  // bits_i, zero-extended to whole bytes
  logic [4*NumBytes-1:0] byte_counts;

  assign padded = (8 * NumBytes)'(bits_i);

  for (genvar b = 0; b < NumBytes; b++) begin : gen_byte
    popcount8 u_byte (
      .bits_i (padded[8*b +: 8]),
      .count_o(byte_counts[4*b +: 4])
    );
  end

  always_comb begin
    count_o = '0;
    for (int b = 0; b < NumBytes; b++) begin
      count_o = count_o + CNT_W'(byte_counts[4*b +: 4]);
    end
  end

endmodule
