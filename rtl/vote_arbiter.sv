// Frequency manager's vote logic (docs/papers.md#equalizer-frequency-manager).
// Cycle-exact with gpupm::VoteArbiter (sc_model/controllers/vote_arbiter.h), whose
// header comment is the contract; in short:
//
//  - votes_valid_i (with votes_i, mode_i, rule_i and the transition cycles) is
//    read in the cycle it is high. Its evaluation shows in the next cycle:
//    decided_o and the *_changed_o pulses for that cycle; winner_o, action_o and
//    the counts held until the next votes_valid_i.
//  - Winner: NONE counts as a vote, reserved code 3 counts as NONE.
//    rule_i 0 plurality: COMP/MEM need strictly more votes than each other
//    code, any tie at the top is NONE. rule_i 1 strict majority: more than
//    N_SMS/2 of all votes.
//  - mode_i 0 performance: COMP -> SM up, MEM -> memory up; 1 energy:
//    COMP -> memory down, MEM -> SM down. One step per accepted vote. If the
//    other domain is off NORMAL, it steps back towards NORMAL instead (five
//    states). A target already at LOW/HIGH does not move (action at-limit).
//  - A level change at the edge ending cycle t makes that domain busy in cycles
//    t+1 .. t+T (T = its transition cycles, 0 = never busy). A votes_valid_i seen
//    while busy_o is high is counted but ignored (action ignored-busy).
//  - All outputs are registers. Reset: both levels NORMAL, everything else 0.
//
// Encodings (gpupm_pkg): levels Level* (0 LOW, 1 NORMAL, 2 HIGH); votes/winner
// Vote* (0 NONE, 1 COMP, 2 MEM); action Act* (0 none, 1 step target, 2 restore
// other, 3 at limit, 4 ignored busy).
// votes_i: SM i's vote in bits [2*i+1:2*i]. Counts are 7 bits: 1 <= N_SMS <= 64
// (checked at elaboration).
module vote_arbiter #(
  parameter int unsigned N_SMS = 15
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               votes_valid_i,
  input  logic [2*N_SMS-1:0] votes_i,
  input  logic               mode_i,
  input  logic               rule_i,
  input  logic [11:0]        sm_transition_cycles_i,
  input  logic [11:0]        mem_transition_cycles_i,
  output logic [1:0]         sm_level_o,
  output logic [1:0]         mem_level_o,
  output logic               sm_changed_o,
  output logic               mem_changed_o,
  output logic               sm_busy_o,
  output logic               mem_busy_o,
  output logic               busy_o,
  output logic               decided_o,
  output logic [1:0]         winner_o,
  output logic [2:0]         action_o,
  output logic [6:0]         count_comp_o,
  output logic [6:0]         count_mem_o,
  output logic [6:0]         count_none_o
);

  localparam int unsigned CntW = 7;

  if (N_SMS < 1 || N_SMS > 64) begin : gen_bad_n_sms
    $error("vote_arbiter: N_SMS must be 1..64");
  end

  // ---------------------------------------------------------------------------
  // Count and resolve this cycle's votes.
  // ---------------------------------------------------------------------------
  logic [CntW-1:0] cnt_comp, cnt_mem, cnt_none;
  logic [1:0]       winner;

  vote_count #(.N_SMS(N_SMS), .CNT_W(CntW)) u_count (
    .votes_i,
    .comp_o(cnt_comp),
    .mem_o (cnt_mem),
    .none_o(cnt_none)
  );

  always_comb begin
    winner = gpupm_pkg::VoteNone;
    if (rule_i) begin
      if ({cnt_comp, 1'b0} > (CntW + 1)'(N_SMS)) begin
        winner = gpupm_pkg::VoteComp;
      end else if ({cnt_mem, 1'b0} > (CntW + 1)'(N_SMS)) begin
        winner = gpupm_pkg::VoteMem;
      end
    end else begin
      if (cnt_comp > cnt_mem && cnt_comp > cnt_none) begin
        winner = gpupm_pkg::VoteComp;
      end else if (cnt_mem > cnt_comp && cnt_mem > cnt_none) begin
        winner = gpupm_pkg::VoteMem;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Levels, busy counters, outputs.
  // ---------------------------------------------------------------------------
  logic [1:0]       sm_level_d, sm_level_q, mem_level_d, mem_level_q;
  logic [11:0]      sm_busy_cnt_d, sm_busy_cnt_q, mem_busy_cnt_d, mem_busy_cnt_q;
  logic             sm_changed_d, sm_changed_q, mem_changed_d, mem_changed_q;
  logic             sm_busy_q, mem_busy_q, busy_q;
  logic             decided_d, decided_q;
  logic [1:0]       winner_d, winner_q;
  logic [2:0]       action_d, action_q;
  logic [CntW-1:0] count_comp_d, count_comp_q, count_mem_d, count_mem_q;
  logic [CntW-1:0] count_none_d, count_none_q;

  logic             perf, target_sm;
  logic [1:0]       target_level, other_level;
  logic [1:0]       other_restored, target_stepped;
  logic             at_limit;

  always_comb begin
    perf      = !mode_i;
    // Table I with I1 fixed: COMP in performance and MEM in energy mode act on the SM.
    target_sm = (winner == gpupm_pkg::VoteComp) == perf;
    target_level = target_sm ? sm_level_q : mem_level_q;
    other_level  = target_sm ? mem_level_q : sm_level_q;
    other_restored = (other_level > gpupm_pkg::LevelNormal) ? other_level - 2'd1 : other_level + 2'd1;
    target_stepped = perf ? target_level + 2'd1 : target_level - 2'd1;
    at_limit = perf ? (target_level >= gpupm_pkg::LevelHigh) : (target_level == gpupm_pkg::LevelLow);
  end

  always_comb begin
    sm_level_d     = sm_level_q;
    mem_level_d    = mem_level_q;
    sm_busy_cnt_d  = (sm_busy_cnt_q != 12'd0) ? sm_busy_cnt_q - 12'd1 : 12'd0;
    mem_busy_cnt_d = (mem_busy_cnt_q != 12'd0) ? mem_busy_cnt_q - 12'd1 : 12'd0;
    sm_changed_d   = 1'b0;
    mem_changed_d  = 1'b0;
    decided_d      = 1'b0;
    winner_d       = winner_q;
    action_d       = action_q;
    count_comp_d   = count_comp_q;
    count_mem_d    = count_mem_q;
    count_none_d   = count_none_q;

    if (votes_valid_i) begin
      decided_d    = 1'b1;
      winner_d     = winner;
      count_comp_d = cnt_comp;
      count_mem_d  = cnt_mem;
      count_none_d = cnt_none;
      if (busy_q) begin
        action_d = gpupm_pkg::ActIgnored;
      end else if (winner == gpupm_pkg::VoteNone) begin
        action_d = gpupm_pkg::ActNone;
      end else if (other_level != gpupm_pkg::LevelNormal) begin
        // Five-state rule: step the other domain back towards NORMAL first.
        action_d = gpupm_pkg::ActRestore;
        if (target_sm) begin
          mem_level_d    = other_restored;
          mem_busy_cnt_d = mem_transition_cycles_i;
          mem_changed_d  = 1'b1;
        end else begin
          sm_level_d    = other_restored;
          sm_busy_cnt_d = sm_transition_cycles_i;
          sm_changed_d  = 1'b1;
        end
      end else if (at_limit) begin
        action_d = gpupm_pkg::ActAtLimit;
      end else begin
        action_d = gpupm_pkg::ActStep;
        if (target_sm) begin
          sm_level_d    = target_stepped;
          sm_busy_cnt_d = sm_transition_cycles_i;
          sm_changed_d  = 1'b1;
        end else begin
          mem_level_d    = target_stepped;
          mem_busy_cnt_d = mem_transition_cycles_i;
          mem_changed_d  = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sm_level_q     <= gpupm_pkg::LevelNormal;
      mem_level_q    <= gpupm_pkg::LevelNormal;
      sm_busy_cnt_q  <= 12'd0;
      mem_busy_cnt_q <= 12'd0;
      sm_changed_q   <= 1'b0;
      mem_changed_q  <= 1'b0;
      sm_busy_q      <= 1'b0;
      mem_busy_q     <= 1'b0;
      busy_q         <= 1'b0;
      decided_q      <= 1'b0;
      winner_q       <= gpupm_pkg::VoteNone;
      action_q       <= gpupm_pkg::ActNone;
      count_comp_q   <= '0;
      count_mem_q    <= '0;
      count_none_q   <= '0;
    end else begin
      sm_level_q     <= sm_level_d;
      mem_level_q    <= mem_level_d;
      sm_busy_cnt_q  <= sm_busy_cnt_d;
      mem_busy_cnt_q <= mem_busy_cnt_d;
      sm_changed_q   <= sm_changed_d;
      mem_changed_q  <= mem_changed_d;
      sm_busy_q      <= sm_busy_cnt_d != 12'd0;
      mem_busy_q     <= mem_busy_cnt_d != 12'd0;
      busy_q         <= (sm_busy_cnt_d != 12'd0) || (mem_busy_cnt_d != 12'd0);
      decided_q      <= decided_d;
      winner_q       <= winner_d;
      action_q       <= action_d;
      count_comp_q   <= count_comp_d;
      count_mem_q    <= count_mem_d;
      count_none_q   <= count_none_d;
    end
  end

  assign sm_level_o    = sm_level_q;
  assign mem_level_o   = mem_level_q;
  assign sm_changed_o  = sm_changed_q;
  assign mem_changed_o = mem_changed_q;
  assign sm_busy_o     = sm_busy_q;
  assign mem_busy_o    = mem_busy_q;
  assign busy_o        = busy_q;
  assign decided_o     = decided_q;
  assign winner_o      = winner_q;
  assign action_o      = action_q;
  assign count_comp_o  = count_comp_q;
  assign count_mem_o   = count_mem_q;
  assign count_none_o  = count_none_q;

endmodule
