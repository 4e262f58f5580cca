// Equalizer warp-state front end (docs/papers.md#equalizer-warp-states): one sample's four per-SM
// warp counts from the per-warp head-instruction vectors (combinational).
// Golden model: gpupm::sample_warp_states() in sc_model/controllers/eq_sm_block.cc.
//
//   active  = valid & ~paused
//   waiting = active & ~ready
//   xalu    = active & ready & is_alu & (xalu_def ? 1 : ~issued)
//   xmem    = active & ready & is_mem & (xmem_def ? ~issued : ~lsu_can_accept)
//
// xalu_def_i: 0 ready-minus-issued (Sec. III-A), 1 all-ready (Sec. IV-A).
// xmem_def_i: 0 ready-and-LSU-blocked (Sec. IV-A), 1 ready-minus-issued (Sec. III-A).
//
// Parameters (checked at elaboration): 1 <= WARPS <= 64, CNT_W >= $clog2(WARPS + 1).
module eq_warp_sample #(
  parameter int unsigned WARPS = 48,
  parameter int unsigned CNT_W = $clog2(WARPS + 1)
) (
  input  logic [WARPS-1:0] warp_valid_i,
  input  logic [WARPS-1:0] warp_paused_i,
  input  logic [WARPS-1:0] head_ready_i,
  input  logic [WARPS-1:0] head_is_mem_i,
  input  logic [WARPS-1:0] head_is_alu_i,
  input  logic [WARPS-1:0] issued_i,
  input  logic             lsu_can_accept_i,
  input  logic             xalu_def_i,
  input  logic             xmem_def_i,
  output logic [CNT_W-1:0] active_o,
  output logic [CNT_W-1:0] waiting_o,
  output logic [CNT_W-1:0] xalu_o,
  output logic [CNT_W-1:0] xmem_o
);

  if (WARPS < 1 || WARPS > 64) begin : gen_bad_warps
    $error("eq_warp_sample: WARPS must be 1..64");
  end
  if (CNT_W < $clog2(WARPS + 1)) begin : gen_bad_cnt_w
    $error("eq_warp_sample: CNT_W is too narrow for a count of WARPS");
  end

  logic [WARPS-1:0] active, ready, waiting, alu_gate, mem_gate, xalu, xmem;

  always_comb begin
    active   = warp_valid_i & ~warp_paused_i;
    ready    = active & head_ready_i;
    waiting  = active & ~head_ready_i;
    alu_gate = xalu_def_i ? {WARPS{1'b1}} : ~issued_i;
    mem_gate = xmem_def_i ? ~issued_i : {WARPS{~lsu_can_accept_i}};
    xalu     = ready & head_is_alu_i & alu_gate;
    xmem     = ready & head_is_mem_i & mem_gate;
  end

  popcount #(.WIDTH(WARPS), .CNT_W(CNT_W)) u_pop_active (
    .bits_i (active),
    .count_o(active_o)
  );

  popcount #(.WIDTH(WARPS), .CNT_W(CNT_W)) u_pop_waiting (
    .bits_i (waiting),
    .count_o(waiting_o)
  );

  popcount #(.WIDTH(WARPS), .CNT_W(CNT_W)) u_pop_xalu (
    .bits_i (xalu),
    .count_o(xalu_o)
  );

  popcount #(.WIDTH(WARPS), .CNT_W(CNT_W)) u_pop_xmem (
    .bits_i (xmem),
    .count_o(xmem_o)
  );

endmodule
