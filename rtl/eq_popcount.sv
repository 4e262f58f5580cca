// Population count of a WIDTH-bit vector (combinational).
//
// Written as a plain accumulation loop: Yosys's alumacc/maccmap turn the chain
// into one multi-operand adder (a carry-save tree), so the loop costs no depth.
module eq_popcount #(
  parameter int unsigned WIDTH = 48,
  parameter int unsigned CNT_W = $clog2(WIDTH + 1)
) (
  input  logic [WIDTH-1:0] bits_i,
  output logic [CNT_W-1:0] count_o
);

  always_comb begin
    count_o = '0;
    for (int i = 0; i < WIDTH; i++) begin
      count_o = count_o + CNT_W'(bits_i[i]);
    end
  end

endmodule
