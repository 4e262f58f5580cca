// Global second-order droop detector and staggering unit of the thread-block
// scheduler (docs/papers.md#voltage-noise-global-smoothing). Cycle-exact with gpupm::StaggerUnit
// (sc_model/controllers/stagger_unit.h), whose header comment is the contract; in
// short:
//
//  - Report strobe: the cycle in which report_count_q == REPORT_PERIOD - 1.
//    Only then are the inputs read: an SM whose sm_active_i bit rose since the
//    last report becomes pending at age 0; pending SMs age by one per report
//    and expire at age WINDOW_SLOTS.
//  - With enable_i high and at least k_min_i SMs pending (this report's
//    included) the strobe's edge detects: the pending SMs and their
//    multipliers m (from the rank: oldest first, then lowest SM id) are
//    registered with step_cycles_i, the pending set clears, trigger_o is high in the
//    next cycle and triggers_o counts (saturating). The edge ending that
//    trigger cycle loads each detected SM's hold counter with
//    step x m (policy_i 0: m = 1; 2: m = rank mod groups_i, 0 reads as 1; 1
//    and 3: m = rank): a two-stage pipeline (ranks, then the products), so a
//    hold starts two cycles after the strobe.
//  - Hold counters count down every cycle; hold_o[i] = counter i non-zero.
//  - Every output is a register or a function of registers only. Reset: all 0.
//
// hold_count_o[14*i+13:14*i] and age_o[2*i+1:2*i] are SM i's counter and age.
// Ranks: per byte of 8 SMs, the pending SMs of age >= k (one 8-bit count per byte and age), their
// sums per byte (shared by its SMs) and one 8-bit count per SM within its byte (see stage 1).
// Above 32 SMs (timing; the behaviour is the same): the step register, policy_i and groups are
// registered in one copy per 8 SMs (gen_step_copy), all loaded on the detect edge, as is the strobe
// (every cycle); mult_q holds the rank's two terms, added and mapped to m in the trigger cycle.
// policy_i codes: gpupm_pkg's Policy*. Parameter ranges (checked at elaboration):
// 1 <= N_SMS <= 64 (5-bit ranks up to 32, 6-bit above), 1 <= REPORT_PERIOD <= 16 (4-bit report counter),
// 1 <= WINDOW_SLOTS <= 3 (2-bit ages).
module stagger_unit #(
  parameter int unsigned N_SMS         = 15,
  parameter int unsigned REPORT_PERIOD = 10,
  parameter int unsigned WINDOW_SLOTS  = 3
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [N_SMS-1:0]    sm_active_i,
  input  logic                enable_i,
  input  logic [5:0]          k_min_i,
  input  logic [7:0]          step_cycles_i,
  input  logic [1:0]          policy_i,
  input  logic [2:0]          groups_i,
  output logic [N_SMS-1:0]    hold_o,
  output logic                trigger_o,
  output logic [N_SMS-1:0]    pending_o,
  output logic [N_SMS-1:0]    last_active_o,
  output logic [15:0]         triggers_o,
  output logic [3:0]          report_count_o,
  output logic [14*N_SMS-1:0] hold_count_o,
  output logic [2*N_SMS-1:0]  age_o
);

  localparam int unsigned HoldW = 14;
  // Ranks 0 .. N_SMS-1 and the pending count 0 .. N_SMS (compared with k_min_i, 6 bits): 5 and
  // 6 bits up to 32 SMs, 6 and 6 bits above but 7 for the count at 64 SMs (the <= 32-SM widths stay as they were).
  localparam int unsigned RankW = (N_SMS > 32) ? 6 : 5;
  localparam int unsigned CntW  = (N_SMS > 63) ? 7 : 6;

  if (N_SMS < 1 || N_SMS > 64) begin : gen_bad_n_sms
    $error("stagger_unit: N_SMS must be 1..64");
  end
  if (REPORT_PERIOD < 1 || REPORT_PERIOD > 16) begin : gen_bad_report_period
    $error("stagger_unit: REPORT_PERIOD must be 1..16");
  end
  if (WINDOW_SLOTS < 1 || WINDOW_SLOTS > 3) begin : gen_bad_window_slots
    $error("stagger_unit: WINDOW_SLOTS must be 1..3");
  end

  logic [3:0]           report_q;
  logic [N_SMS-1:0]     last_q, pending_q;
  logic [2*N_SMS-1:0]   age_q;
  logic [HoldW*N_SMS-1:0] hold_cnt_q;
  logic                 trigger_q;
  logic [15:0]          triggers_q;

  logic             strobe;
  logic [N_SMS-1:0] strobe_sm;  // the strobe as SM i's next-state logic sees it (gen_step_copy)
  logic [3:0]       report_d;
  assign strobe = report_q == 4'(REPORT_PERIOD - 1);

  // ---------------------------------------------------------------------------
  // This report: transitions, aging, the pending set the decision sees.
  // ---------------------------------------------------------------------------
  logic [N_SMS-1:0]   rising, pend_n;
  logic [2*N_SMS-1:0] age_n;

  assign rising = sm_active_i & ~last_q;

  always_comb begin
    for (int i = 0; i < N_SMS; i++) begin
      if (rising[i]) begin
        pend_n[i]        = 1'b1;
        age_n[2*i +: 2]  = 2'd0;
      end else if (pending_q[i] && {1'b0, age_q[2*i +: 2]} + 3'd1 < 3'(WINDOW_SLOTS)) begin
        pend_n[i]        = 1'b1;
        age_n[2*i +: 2]  = age_q[2*i +: 2] + 2'd1;
      end else begin
        pend_n[i]        = 1'b0;
        age_n[2*i +: 2]  = 2'd0;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Stage 1 (the strobe's edge): ranks of the pending set and their multipliers m.
  // SM i's rank (a = its age, SM i in byte bi of 8 SMs) is the pending SMs older than i anywhere
  // plus those of age a below i:
  //   rank_i = sum_{b < bi} older[a][b] + sum_{b >= bi} older[a+1][b] + same_i,
  // older[k][b] = the pending SMs of age >= k in byte b (older[WINDOW_SLOTS] = 0), same_i = the
  // pending SMs of age a below i in byte bi. The byte sums (rank_base) are shared by a byte's SMs,
  // and each SM's age fans out within its byte only (not into one comparison per SM pair).
  // ---------------------------------------------------------------------------
  localparam int unsigned NumBytes = (N_SMS + 7) / 8;
  localparam int unsigned Ages     = WINDOW_SLOTS;

  logic [8*NumBytes-1:0]          pend_pad;   // pend_n and age_n, zero-extended to whole bytes
  logic [16*NumBytes-1:0]         age_pad;
  logic [4*(Ages+1)*NumBytes-1:0] older;      // older[k][b]: 4 bits at 4*(k*NumBytes+b)
  logic [RankW*Ages*NumBytes-1:0] rank_base;  // rank_base[a][b]: the rank of an age-a SM first in byte b

  assign pend_pad = (8 * NumBytes)'(pend_n);
  assign age_pad  = (16 * NumBytes)'(age_n);
  assign older[4*Ages*NumBytes +: 4*NumBytes] = '0;

  for (genvar k = 0; k < Ages; k++) begin : gen_older
    for (genvar b = 0; b < NumBytes; b++) begin : gen_byte
      logic [7:0] bits;  // byte b's pending SMs of age >= k

      always_comb begin
        for (int s = 0; s < 8; s++) begin
          bits[s] = pend_pad[8*b+s] && {1'b0, age_pad[2*(8*b+s) +: 2]} + 3'd1 > 3'(k);
        end
      end

      popcount8 u_cnt (
        .bits_i (bits),
        .count_o(older[4*(k*NumBytes+b) +: 4])
      );
    end
  end

  // Each sum adds its bytes from b - 1 down, wrapping round: no two sums (nor n_pending) then
  // start with the same pair, so Yosys shares no partial sum between them and each stays one
  // multi-operand adder (alumacc) instead of a chain of shared two-operand adds.
  always_comb begin
    for (int a = 0; a < Ages; a++) begin
      for (int b = 0; b < NumBytes; b++) begin
        rank_base[RankW*(a*NumBytes+b) +: RankW] = '0;
        for (int t = 0; t < NumBytes; t++) begin
          int c;
          c = (b + 2 * NumBytes - 1 - t) % NumBytes;
          rank_base[RankW*(a*NumBytes+b) +: RankW] = rank_base[RankW*(a*NumBytes+b) +: RankW] +
              RankW'(older[4*(((c < b) ? a : a + 1)*NumBytes+c) +: 4]);
        end
      end
    end
  end

  logic [CntW-1:0] n_pending;
  logic            detect;

  always_comb begin
    n_pending = '0;
    for (int b = NumBytes - 1; b >= 0; b--) begin
      n_pending = n_pending + CntW'(older[4*b +: 4]);
    end
  end

  assign detect = strobe && enable_i && n_pending >= CntW'(k_min_i);

  // mult_q per SM: up to 32 SMs its m; above, its rank's two terms {same_cnt[2:0], base}, added in
  // stage 2 (gen_step_copy): same_cnt <= 7 (an SM counts only SMs below it in its byte).
  localparam int unsigned MultQW = (RankW == 5) ? RankW : RankW + 3;

  logic [2:0]              groups;
  logic [MultQW*N_SMS-1:0] mult_n, mult_q;
  logic [N_SMS-1:0]       sel_q;
  logic [7:0]             step_q;

  assign groups = (groups_i == 3'd0) ? 3'd1 : groups_i;

  // rank mod g for every g (0: 0) and rank as a constant table: the grouped policy's m is one
  // lookup, a small function of the rank and g, instead of a divider ($mod), the longest part of
  // stage 2 at 60 SMs.
  localparam int unsigned Ranks = 1 << RankW;

  function automatic logic [3*8*Ranks-1:0] rank_mod_table();
    for (int unsigned g = 0; g < 8; g++) begin
      for (int unsigned r = 0; r < Ranks; r++) begin
        rank_mod_table[3*(g*Ranks+r) +: 3] = (g == 0) ? 3'd0 : 3'(r % g);
      end
    end
  endfunction

  localparam logic [3*8*Ranks-1:0] RankMod = rank_mod_table();

  // A rank's multiplier m: policy 0: 1; 2: rank mod groups (1..7); 1, 3: rank. Stage 1 maps the
  // ranks up to 32 SMs, stage 2 above (gen_step_copy).
  function automatic logic [RankW-1:0] multiplier(input logic [1:0]       policy,
                                                    input logic [2:0]       grp,
                                                    input logic [RankW-1:0] rank);
    if (policy == gpupm_pkg::PolicyUniform) begin
      multiplier = RankW'(1);
    end else if (policy == gpupm_pkg::PolicyGrouped) begin
      multiplier = RankW'(RankMod[3*{grp, rank} +: 3]);
    end else begin
      multiplier = rank;
    end
  endfunction

  for (genvar i = 0; i < N_SMS; i++) begin : gen_rank
    localparam int unsigned Byte = i / 8;
    localparam int          Pos  = i % 8;  // SM i's place in its byte
    logic [7:0]       same;  // pending SMs of SM i's age below it in its byte
    logic [3:0]       same_cnt;
    logic [RankW-1:0] base;

    always_comb begin
      for (int s = 0; s < 8; s++) begin
        same[s] = s < Pos && pend_pad[8*Byte+s] && age_pad[2*(8*Byte+s) +: 2] == age_n[2*i +: 2];
      end
    end

    popcount8 u_same (
      .bits_i (same),
      .count_o(same_cnt)
    );

    always_comb begin
      base = '0;
      for (int a = 0; a < Ages; a++) begin
        if (age_n[2*i +: 2] == 2'(a)) begin
          base = rank_base[RankW*(a*NumBytes+Byte) +: RankW];
        end
      end
    end

    if (RankW == 5) begin : gen_mult_n
      assign mult_n[MultQW*i +: MultQW] = multiplier(policy_i, groups, base + RankW'(same_cnt));
    end else begin : gen_mult_n
      // Above 32 SMs mult_q holds the rank's two terms; stage 2 adds them and maps the rank to m
      // with policy_i and groups registered on the same edge (gen_step_copy): the same m in the
      // same cycle.
      logic unused_same_msb;
      assign unused_same_msb = same_cnt[3];
      assign mult_n[MultQW*i +: MultQW] = {same_cnt[2:0], base};
    end
  end

  // ---------------------------------------------------------------------------
  // Stage 2 (the trigger cycle): hold values step x m of the detected SMs.
  // ---------------------------------------------------------------------------
  logic [HoldW*N_SMS-1:0] hold_val;

  for (genvar i = 0; i < N_SMS; i++) begin : gen_hold
    // Up to 32 SMs the multiplier at its default width (no parameter override: the same
    // module as before MULT_W existed), fed by step_q.
    if (RankW == 5) begin : gen_mult
      assign strobe_sm[i] = strobe;

      stagger_mult u_mult (
        .step_i(step_q),
        .mult_i(mult_q[MultQW*i +: MultQW]),
        .hold_o(hold_val[HoldW*i +: HoldW])
      );
    end
  end

  // Above 32 SMs the step register is replicated, one copy per StepGroup SMs: step_q alone would
  // drive the partial products of every multiplier (about 360 gate inputs at 60 SMs) with no
  // buffer, since flip-flop outputs are outside ABC's network. Each copy loads step_cycles_i in
  // the same cycle as step_q (detect), so every copy always equals step_q and the cycle behaviour
  // is unchanged; (* keep *) on each copy's always_ff stops Yosys (opt_merge) from merging the
  // identical flip-flops back into one. The copies also hold policy_i and groups from the same
  // edge, and mult_q the rank (gen_mult_n): rank -> m is done here, in the trigger cycle, from
  // the same values stage 1 would have used (stage 1's rank popcount was the longer path).
  if (RankW != 5) begin : gen_step_copy
    localparam int unsigned StepGroup  = 8;
    localparam int unsigned StepCopies = (N_SMS + StepGroup - 1) / StepGroup;

    logic unused_step_q;  // step_q itself: the copies serve every multiplier
    assign unused_step_q = ^step_q;

    for (genvar g = 0; g < StepCopies; g++) begin : gen_group
      logic [7:0] step_copy_q;
      logic [1:0] policy_copy_q;
      logic [2:0] groups_copy_q;

      logic       strobe_copy_q;

      // The strobe, one copy per group, for the group's next-state muxes: decoded from report_q
      // in every one, ABC (for which flip-flop outputs are unbuffered inputs) let a report_q bit
      // drive about 160 gates, 4.9 ns. Always report_q == REPORT_PERIOD - 1, reset included.
      (* keep *)
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          strobe_copy_q <= 1'(REPORT_PERIOD == 1);
        end else begin
          strobe_copy_q <= report_d == 4'(REPORT_PERIOD - 1);
        end
      end

      (* keep *)
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          step_copy_q   <= 8'd0;
          policy_copy_q <= 2'd0;
          groups_copy_q <= 3'd0;
        end else if (detect) begin
          step_copy_q   <= step_cycles_i;
          policy_copy_q <= policy_i;
          groups_copy_q <= groups;
        end
      end

      for (genvar k = 0; k < StepGroup && g * StepGroup + k < N_SMS; k++) begin : gen_mult
        localparam int unsigned Sm = g * StepGroup + k;
        logic [RankW-1:0] rank, mult;

        assign strobe_sm[Sm] = strobe_copy_q;
        assign rank = mult_q[MultQW*Sm +: RankW] + RankW'(mult_q[MultQW*Sm+RankW +: 3]);

        assign mult = multiplier(policy_copy_q, groups_copy_q, rank);

        stagger_mult #(.MULT_W(RankW)) u_mult (
          .step_i(step_copy_q),
          .mult_i(mult),
          .hold_o(hold_val[HoldW*Sm +: HoldW])
        );
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Next state.
  // ---------------------------------------------------------------------------
  logic [N_SMS-1:0]       last_d, pending_d;
  logic [2*N_SMS-1:0]     age_d;
  logic [HoldW*N_SMS-1:0] hold_cnt_d;
  logic [15:0]            triggers_d;

  always_comb begin
    report_d   = strobe ? 4'd0 : report_q + 4'd1;
    last_d     = last_q;
    pending_d  = pending_q;
    age_d      = age_q;
    for (int i = 0; i < N_SMS; i++) begin
      if (strobe_sm[i]) begin  // detect implies the strobe
        last_d[i]         = sm_active_i[i];
        pending_d[i]      = pend_n[i] && !detect;
        age_d[2*i +: 2]   = detect ? 2'd0 : age_n[2*i +: 2];
      end
    end
    triggers_d = (detect && triggers_q != 16'hffff) ? triggers_q + 16'd1 : triggers_q;
    for (int i = 0; i < N_SMS; i++) begin
      if (trigger_q && sel_q[i]) begin
        hold_cnt_d[HoldW*i +: HoldW] = hold_val[HoldW*i +: HoldW];
      end else if (hold_cnt_q[HoldW*i +: HoldW] != '0) begin
        hold_cnt_d[HoldW*i +: HoldW] = hold_cnt_q[HoldW*i +: HoldW] - HoldW'(1);
      end else begin
        hold_cnt_d[HoldW*i +: HoldW] = '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      report_q   <= 4'd0;
      last_q     <= '0;
      pending_q  <= '0;
      age_q      <= '0;
      hold_cnt_q <= '0;
      trigger_q  <= 1'b0;
      triggers_q <= 16'd0;
      sel_q      <= '0;
      mult_q     <= '0;
      step_q     <= 8'd0;
    end else begin
      report_q   <= report_d;
      last_q     <= last_d;
      pending_q  <= pending_d;
      age_q      <= age_d;
      hold_cnt_q <= hold_cnt_d;
      trigger_q  <= detect;
      triggers_q <= triggers_d;
      if (detect) begin
        sel_q    <= pend_n;
        mult_q   <= mult_n;
        step_q   <= step_cycles_i;
      end
    end
  end

  always_comb begin
    for (int i = 0; i < N_SMS; i++) begin
      hold_o[i] = hold_cnt_q[HoldW*i +: HoldW] != '0;
    end
  end

  assign trigger_o      = trigger_q;
  assign pending_o      = pending_q;
  assign last_active_o  = last_q;
  assign triggers_o     = triggers_q;
  assign report_count_o = report_q;
  assign hold_count_o   = hold_cnt_q;
  assign age_o          = age_q;

endmodule
