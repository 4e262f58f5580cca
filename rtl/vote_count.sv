// Frequency-manager vote counter (docs/papers.md#equalizer-frequency-manager): how many of N_SMS 2-bit votes are
// COMP (1) and MEM (2); the rest (NONE 0 and reserved 3) count as NONE.
// Golden model: gpupm::count_votes() in sc_model/controllers/vote_arbiter.cc.
// Codes: gpupm_pkg's Vote*. Parameters (checked at elaboration): N_SMS >= 1,
// CNT_W >= $clog2(N_SMS + 1).
module vote_count #(
  parameter int unsigned N_SMS = 15,
  parameter int unsigned CNT_W = 7
) (
  input  logic [2*N_SMS-1:0] votes_i,
  output logic [CNT_W-1:0]   comp_o,
  output logic [CNT_W-1:0]   mem_o,
  output logic [CNT_W-1:0]   none_o
);

  if (N_SMS < 1) begin : gen_bad_n_sms
    $error("vote_count: N_SMS must be at least 1");
  end
  if (CNT_W < $clog2(N_SMS + 1)) begin : gen_bad_cnt_w
    $error("vote_count: CNT_W is too narrow for a count of N_SMS");
  end

  logic [N_SMS-1:0] is_comp, is_mem;

  always_comb begin
    for (int i = 0; i < N_SMS; i++) begin
      is_comp[i] = votes_i[2*i +: 2] == gpupm_pkg::VoteComp;
      is_mem[i]  = votes_i[2*i +: 2] == gpupm_pkg::VoteMem;
    end
  end

  popcount #(.WIDTH(N_SMS), .CNT_W(CNT_W)) u_pop_comp (
    .bits_i (is_comp),
    .count_o(comp_o)
  );

  popcount #(.WIDTH(N_SMS), .CNT_W(CNT_W)) u_pop_mem (
    .bits_i (is_mem),
    .count_o(mem_o)
  );

  assign none_o = CNT_W'(N_SMS) - comp_o - mem_o;

endmodule
