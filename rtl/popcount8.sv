// Population count of one byte (combinational): the leaf of popcount.
module popcount8 (
  input  logic [7:0] bits_i,
  output logic [3:0] count_o
);

  always_comb begin
    count_o = '0;
    for (int i = 0; i < 8; i++) begin
      count_o = count_o + 4'(bits_i[i]);
    end
  end

endmodule
