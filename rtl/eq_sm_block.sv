// Equalizer per-SM block (docs/papers.md sections 1.1, 1.2, 1.4): warp-state
// sampling, epoch sums, Algorithm 1 and the numBlocks hysteresis.
// Cycle-exact with gpupm::EqSmBlock (sc_model/controllers/eq_sm_block.h),
// whose header comment is the contract; in short:
//
//  - cycle_q counts SAMPLE_LOG2 + EPOCH_LOG2 bits, free-running from reset.
//  - Sample strobe: the cycle before cycle_q[SAMPLE_LOG2-1:0] is all ones
//    (cycle_q + 1 has those bits all ones; every cycle when SAMPLE_LOG2 = 0).
//    The warp vectors, lsu_can_accept_i, xalu_def_i and xmem_def_i are read
//    only then. The sample's four popcounts are registered (smp_*_q, zero in
//    the other cycles) and added to the accumulators in the next cycle: the
//    pipeline stage that takes the popcounts off the epoch-evaluation path.
//  - Epoch strobe: cycle_q all ones (the cycle after the last sample's
//    strobe). w_cta_i, enable_i, threshold_mode_i and max_blocks_i (as the
//    upper bound) are read only then. The sums include the last sample.
//  - kernel_start_i is read every cycle: num_blocks := max_blocks_i, hysteresis
//    cleared, and it overrides a numBlocks change committed at the same edge
//    (blk_req_o 0); the epoch's vote still goes out.
//  - Hysteresis: a change commits on the 3rd consecutive epoch that wants a change
//    in the same direction inside [1, max_blocks]. No change wanted, or a change
//    out of range: count cleared. Direction flip: count restarts at 1.
//  - enable_i low at the epoch strobe: vote NONE, no change, count cleared;
//    sums and branch are still updated.
//  - All outputs are registers; all registers reset to 0 (num_blocks_o stays 0
//    until the first kernel_start_i). epoch_done_o and blk_req_o are one-cycle
//    pulses in the cycle after the epoch strobe; the others hold until the next.
//
// Encodings (gpupm_pkg): blk_req_o Delta* (two's complement, -1 = 2'b11); vote_o
// Vote*; branch_o Branch*; threshold_mode_i 0 exact sums, 1 truncated averages;
// xalu_def_i / xmem_def_i as eq_warp_sample.
//
// Parameter ranges (as the C++ model checks, and checked at elaboration):
// 1 <= WARPS <= 64, 1 <= SAMPLE_LOG2 + EPOCH_LOG2 <= 16, sums (SUM_W) at most
// 16 bits; CNT_W, CYC_W and SUM_W follow from the others (leave them unset).
module eq_sm_block #(
  parameter int unsigned WARPS       = 48,
  parameter int unsigned SAMPLE_LOG2 = 7,
  parameter int unsigned EPOCH_LOG2  = 5,
  // Derived widths: per-sample popcount, cycle counter, epoch sums.
  parameter int unsigned CNT_W       = $clog2(WARPS + 1),
  parameter int unsigned CYC_W       = SAMPLE_LOG2 + EPOCH_LOG2,
  parameter int unsigned SUM_W       = $clog2((WARPS << EPOCH_LOG2) + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Per-warp head-instruction state, bit w = warp w.
  input  logic [WARPS-1:0] warp_valid_i,
  input  logic [WARPS-1:0] warp_paused_i,
  input  logic [WARPS-1:0] head_ready_i,
  input  logic [WARPS-1:0] head_is_mem_i,
  input  logic [WARPS-1:0] head_is_alu_i,
  input  logic [WARPS-1:0] issued_i,
  input  logic             lsu_can_accept_i,
  // Kernel.
  input  logic [4:0]       w_cta_i,
  input  logic [3:0]       max_blocks_i,
  input  logic             kernel_start_i,
  // CSR fields.
  input  logic             enable_i,
  input  logic             xalu_def_i,
  input  logic             xmem_def_i,
  input  logic             threshold_mode_i,
  // Registered outputs.
  output logic             epoch_done_o,
  output logic [1:0]       blk_req_o,
  output logic [1:0]       vote_o,
  output logic [2:0]       branch_o,
  output logic [SUM_W-1:0] sum_active_o,
  output logic [SUM_W-1:0] sum_waiting_o,
  output logic [SUM_W-1:0] sum_xalu_o,
  output logic [SUM_W-1:0] sum_xmem_o,
  output logic [3:0]       num_blocks_o
);

  // Elaboration-time parameter checks (Verilator and Yosys stop with the message).
  if (WARPS < 1 || WARPS > 64) begin : gen_bad_warps
    $error("eq_sm_block: WARPS must be 1..64");
  end
  if (CYC_W < 1 || CYC_W > 16) begin : gen_bad_cycle_bits
    $error("eq_sm_block: SAMPLE_LOG2 + EPOCH_LOG2 must be 1..16");
  end
  if (SUM_W > 16) begin : gen_bad_sum_bits
    $error("eq_sm_block: the epoch sums need more than 16 bits (WARPS << EPOCH_LOG2 must be below 65536)");
  end
  if (CNT_W != $clog2(WARPS + 1) || CYC_W != SAMPLE_LOG2 + EPOCH_LOG2 ||
      SUM_W != $clog2((WARPS << EPOCH_LOG2) + 1)) begin : gen_bad_derived
    $error("eq_sm_block: CNT_W, CYC_W and SUM_W are derived from WARPS, SAMPLE_LOG2 and EPOCH_LOG2; leave them unset");
  end

  localparam logic [CYC_W-1:0] SampleMask = CYC_W'((1 << SAMPLE_LOG2) - 1);
  localparam logic [1:0]       HystEpochs = 2'd3;

  // ---------------------------------------------------------------------------
  // Strobes and the sample front end.
  // ---------------------------------------------------------------------------
  logic [CYC_W-1:0] cycle_d, cycle_q;
  logic             sample_strobe, epoch_strobe;
  logic [CNT_W-1:0] smp_active, smp_waiting, smp_xalu, smp_xmem;

  always_comb begin
    cycle_d       = cycle_q + CYC_W'(1);
    sample_strobe = (cycle_d & SampleMask) == SampleMask;
    epoch_strobe  = &cycle_q;
  end

  eq_warp_sample #(.WARPS(WARPS), .CNT_W(CNT_W)) u_sample (
    .warp_valid_i,
    .warp_paused_i,
    .head_ready_i,
    .head_is_mem_i,
    .head_is_alu_i,
    .issued_i,
    .lsu_can_accept_i,
    .xalu_def_i,
    .xmem_def_i,
    .active_o (smp_active),
    .waiting_o(smp_waiting),
    .xalu_o   (smp_xalu),
    .xmem_o   (smp_xmem)
  );

  // ---------------------------------------------------------------------------
  // Sample register (the pipeline stage): the strobe cycle's popcounts, else 0.
  // Accumulators: this cycle's sums include the registered sample.
  // ---------------------------------------------------------------------------
  logic [CNT_W-1:0] smp_active_d, smp_waiting_d, smp_xalu_d, smp_xmem_d;
  logic [CNT_W-1:0] smp_active_q, smp_waiting_q, smp_xalu_q, smp_xmem_q;
  logic [SUM_W-1:0] acc_active_d, acc_waiting_d, acc_xalu_d, acc_xmem_d;
  logic [SUM_W-1:0] acc_active_q, acc_waiting_q, acc_xalu_q, acc_xmem_q;
  logic [SUM_W-1:0] tot_active, tot_waiting, tot_xalu, tot_xmem;

  always_comb begin
    if (sample_strobe) begin
      smp_active_d  = smp_active;
      smp_waiting_d = smp_waiting;
      smp_xalu_d    = smp_xalu;
      smp_xmem_d    = smp_xmem;
    end else begin
      smp_active_d  = '0;
      smp_waiting_d = '0;
      smp_xalu_d    = '0;
      smp_xmem_d    = '0;
    end
    tot_active  = acc_active_q + SUM_W'(smp_active_q);
    tot_waiting = acc_waiting_q + SUM_W'(smp_waiting_q);
    tot_xalu    = acc_xalu_q + SUM_W'(smp_xalu_q);
    tot_xmem    = acc_xmem_q + SUM_W'(smp_xmem_q);
    if (epoch_strobe) begin
      acc_active_d  = '0;
      acc_waiting_d = '0;
      acc_xalu_d    = '0;
      acc_xmem_d    = '0;
    end else begin
      acc_active_d  = tot_active;
      acc_waiting_d = tot_waiting;
      acc_xalu_d    = tot_xalu;
      acc_xmem_d    = tot_xmem;
    end
  end

  // ---------------------------------------------------------------------------
  // Algorithm 1 on the epoch's sums.
  // ---------------------------------------------------------------------------
  logic [1:0] dec_delta, dec_vote;
  logic [2:0] dec_branch;

  eq_decision #(.SUM_W(SUM_W), .EPOCH_LOG2(EPOCH_LOG2)) u_decision (
    .sum_active_i (tot_active),
    .sum_waiting_i(tot_waiting),
    .sum_xalu_i   (tot_xalu),
    .sum_xmem_i   (tot_xmem),
    .w_cta_i,
    .truncate_i   (threshold_mode_i),
    .block_delta_o(dec_delta),
    .vote_o       (dec_vote),
    .branch_o     (dec_branch)
  );

  // ---------------------------------------------------------------------------
  // numBlocks hysteresis, outputs, kernel_start.
  // ---------------------------------------------------------------------------
  logic             epoch_done_d, epoch_done_q;
  logic [1:0]       blk_req_d, blk_req_q;
  logic [1:0]       vote_d, vote_q;
  logic [2:0]       branch_d, branch_q;
  logic [SUM_W-1:0] sum_active_d, sum_waiting_d, sum_xalu_d, sum_xmem_d;
  logic [SUM_W-1:0] sum_active_q, sum_waiting_q, sum_xalu_q, sum_xmem_q;
  logic [3:0]       num_blocks_d, num_blocks_q;
  logic [1:0]       hyst_count_d, hyst_count_q;
  logic             hyst_up_d, hyst_up_q;

  logic             want_up;      // dec_delta is +1 (else -1 when nonzero)
  logic [4:0]       target;       // num_blocks +- 1, valid when in_range
  logic             in_range;     // target inside [1, max_blocks]
  logic [1:0]       run_length;   // this epoch's place in a same-direction run

  always_comb begin
    want_up = dec_delta == gpupm_pkg::DeltaPlus;
    if (want_up) begin
      target   = {1'b0, num_blocks_q} + 5'd1;
      in_range = target <= {1'b0, max_blocks_i};
    end else begin
      target   = {1'b0, num_blocks_q} - 5'd1;
      in_range = (num_blocks_q >= 4'd2) && (target <= {1'b0, max_blocks_i});
    end
    run_length = ((hyst_count_q != 2'd0) && (want_up == hyst_up_q)) ? hyst_count_q + 2'd1 : 2'd1;
  end

  always_comb begin
    epoch_done_d  = epoch_strobe;
    blk_req_d     = gpupm_pkg::DeltaZero;
    vote_d        = vote_q;
    branch_d      = branch_q;
    sum_active_d  = sum_active_q;
    sum_waiting_d = sum_waiting_q;
    sum_xalu_d    = sum_xalu_q;
    sum_xmem_d    = sum_xmem_q;
    num_blocks_d  = num_blocks_q;
    hyst_count_d  = hyst_count_q;
    hyst_up_d     = hyst_up_q;

    if (epoch_strobe) begin
      sum_active_d  = tot_active;
      sum_waiting_d = tot_waiting;
      sum_xalu_d    = tot_xalu;
      sum_xmem_d    = tot_xmem;
      branch_d      = dec_branch;
      if (!enable_i) begin
        vote_d       = gpupm_pkg::VoteNone;
        hyst_count_d = 2'd0;
      end else begin
        vote_d = dec_vote;
        if (dec_delta == gpupm_pkg::DeltaZero || !in_range) begin
          hyst_count_d = 2'd0;
        end else begin
          hyst_up_d = want_up;
          if (run_length == HystEpochs) begin
            hyst_count_d = 2'd0;
            num_blocks_d = target[3:0];
            blk_req_d    = dec_delta;
          end else begin
            hyst_count_d = run_length;
          end
        end
      end
    end

    if (kernel_start_i) begin
      num_blocks_d = max_blocks_i;
      blk_req_d    = gpupm_pkg::DeltaZero;
      hyst_count_d = 2'd0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q       <= '0;
      smp_active_q  <= '0;
      smp_waiting_q <= '0;
      smp_xalu_q    <= '0;
      smp_xmem_q    <= '0;
      acc_active_q  <= '0;
      acc_waiting_q <= '0;
      acc_xalu_q    <= '0;
      acc_xmem_q    <= '0;
      epoch_done_q  <= 1'b0;
      blk_req_q     <= gpupm_pkg::DeltaZero;
      vote_q        <= gpupm_pkg::VoteNone;
      branch_q      <= gpupm_pkg::BranchDegenerate;
      sum_active_q  <= '0;
      sum_waiting_q <= '0;
      sum_xalu_q    <= '0;
      sum_xmem_q    <= '0;
      num_blocks_q  <= 4'd0;
      hyst_count_q  <= 2'd0;
      hyst_up_q     <= 1'b0;
    end else begin
      cycle_q       <= cycle_d;
      smp_active_q  <= smp_active_d;
      smp_waiting_q <= smp_waiting_d;
      smp_xalu_q    <= smp_xalu_d;
      smp_xmem_q    <= smp_xmem_d;
      acc_active_q  <= acc_active_d;
      acc_waiting_q <= acc_waiting_d;
      acc_xalu_q    <= acc_xalu_d;
      acc_xmem_q    <= acc_xmem_d;
      epoch_done_q  <= epoch_done_d;
      blk_req_q     <= blk_req_d;
      vote_q        <= vote_d;
      branch_q      <= branch_d;
      sum_active_q  <= sum_active_d;
      sum_waiting_q <= sum_waiting_d;
      sum_xalu_q    <= sum_xalu_d;
      sum_xmem_q    <= sum_xmem_d;
      num_blocks_q  <= num_blocks_d;
      hyst_count_q  <= hyst_count_d;
      hyst_up_q     <= hyst_up_d;
    end
  end

  assign epoch_done_o  = epoch_done_q;
  assign blk_req_o     = blk_req_q;
  assign vote_o        = vote_q;
  assign branch_o      = branch_q;
  assign sum_active_o  = sum_active_q;
  assign sum_waiting_o = sum_waiting_q;
  assign sum_xalu_o    = sum_xalu_q;
  assign sum_xmem_o    = sum_xmem_q;
  assign num_blocks_o  = num_blocks_q;

endmodule
