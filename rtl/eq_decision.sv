// Equalizer Algorithm 1 (docs/papers.md#equalizer-algorithm-1, I2 fixed) on one epoch's warp-state sums:
// the combinational decision logic of the per-SM block.
// Golden model: gpupm::decide() in sc_model/controllers/eq_decision.cc.
//
// truncate_i = 0 (exact sums): every n of Alg. 1 is the sum S itself and the
//   constant thresholds are scaled by 2^EPOCH_LOG2 (S_mem > W_cta*2^L, ...).
// truncate_i = 1 (truncated averages): n = S >> EPOCH_LOG2, thresholds as written.
// nWaiting > nActive/2 is evaluated as 2*nWaiting > nActive (equal for integers).
//
// Outputs (codes in gpupm_pkg): block_delta_o Delta* (two's complement -1/0/+1);
// vote_o Vote*; branch_o Branch* (0 degenerate, 1 mem definite, 2 comp definite,
// 3 mem likely, 4 unsaturated comp, 5 unsaturated mem, 6 idle).
// Parameters (checked at elaboration): 1 <= SUM_W <= 16 (EqSums' 16-bit sums),
// EPOCH_LOG2 <= 16.
module eq_decision #(
  parameter int unsigned SUM_W      = 11,
  parameter int unsigned EPOCH_LOG2 = 5
) (
  input  logic [SUM_W-1:0] sum_active_i,
  input  logic [SUM_W-1:0] sum_waiting_i,
  input  logic [SUM_W-1:0] sum_xalu_i,
  input  logic [SUM_W-1:0] sum_xmem_i,
  input  logic [4:0]       w_cta_i,
  input  logic             truncate_i,
  output logic [1:0]       block_delta_o,
  output logic [1:0]       vote_o,
  output logic [2:0]       branch_o
);

  if (SUM_W < 1 || SUM_W > 16) begin : gen_bad_sum_w
    $error("eq_decision: SUM_W must be 1..16");
  end
  if (EPOCH_LOG2 > 16) begin : gen_bad_epoch_log2
    $error("eq_decision: EPOCH_LOG2 must be 0..16");
  end

  // W_cta << L needs 5 + L bits; one more bit holds 2 * nWaiting.
  localparam int unsigned ThrW = 5 + EPOCH_LOG2;
  localparam int unsigned MaxW = (SUM_W > ThrW) ? SUM_W : ThrW;
  localparam int unsigned CmpW = MaxW + 1;

  logic [CmpW-1:0] n_active, n_waiting, n_alu, n_mem;
  logic [CmpW-1:0] w_thr, two_thr;
  logic             mem_definite, comp_definite, mem_likely, unsaturated, alu_over_mem, idle;

  always_comb begin
    if (truncate_i) begin
      n_active  = CmpW'(sum_active_i) >> EPOCH_LOG2;
      n_waiting = CmpW'(sum_waiting_i) >> EPOCH_LOG2;
      n_alu     = CmpW'(sum_xalu_i) >> EPOCH_LOG2;
      n_mem     = CmpW'(sum_xmem_i) >> EPOCH_LOG2;
      w_thr     = CmpW'(w_cta_i);
      two_thr   = CmpW'(2);
    end else begin
      n_active  = CmpW'(sum_active_i);
      n_waiting = CmpW'(sum_waiting_i);
      n_alu     = CmpW'(sum_xalu_i);
      n_mem     = CmpW'(sum_xmem_i);
      w_thr     = CmpW'(w_cta_i) << EPOCH_LOG2;
      two_thr   = CmpW'(2) << EPOCH_LOG2;
    end
  end

  always_comb begin
    mem_definite  = n_mem > w_thr;
    comp_definite = n_alu > w_thr;
    mem_likely    = n_mem > two_thr;
    unsaturated   = (n_waiting << 1) > n_active;
    alu_over_mem  = n_alu > n_mem;
    idle          = n_active == '0;
  end

  always_comb begin
    block_delta_o = gpupm_pkg::DeltaZero;
    vote_o        = gpupm_pkg::VoteNone;
    branch_o      = gpupm_pkg::BranchDegenerate;
    if (mem_definite) begin
      block_delta_o = gpupm_pkg::DeltaMinus;
      vote_o        = gpupm_pkg::VoteMem;
      branch_o      = gpupm_pkg::BranchMemDef;
    end else if (comp_definite) begin
      vote_o   = gpupm_pkg::VoteComp;
      branch_o = gpupm_pkg::BranchCompDef;
    end else if (mem_likely) begin
      vote_o   = gpupm_pkg::VoteMem;
      branch_o = gpupm_pkg::BranchMemLikely;
    end else if (unsaturated) begin
      block_delta_o = gpupm_pkg::DeltaPlus;
      if (alu_over_mem) begin
        vote_o   = gpupm_pkg::VoteComp;
        branch_o = gpupm_pkg::BranchUnsatComp;
      end else begin
        vote_o   = gpupm_pkg::VoteMem;
        branch_o = gpupm_pkg::BranchUnsatMem;
      end
    end else if (idle) begin
      vote_o   = gpupm_pkg::VoteComp;
      branch_o = gpupm_pkg::BranchIdle;
    end
  end

endmodule
