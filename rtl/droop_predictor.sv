// Local first-order droop predictor and dispatch throttle of one SM
// (docs/papers.md#voltage-noise-local-smoothing). Cycle-exact with gpupm::DroopPredictor
// (sc_model/controllers/droop_predictor.h), whose header comment is the contract; in
// short:
//
//  - Estimate of a candidate set = sum of its class weights (weights_i[6c+5:6c]
//    = class c: 0 ALU, 1 SFU, 2 LD/ST, 3 other); at most 4 x 63 = 252, 8 bits.
//  - History h0/h1/h2: the admitted estimates of the last three cycles.
//    predict_o: the whole valid set P_new has P_new - h0 > t2_i,
//    P_new - h1 > t3_i or P_new - h2 > t4_i.
//  - admit_o: the longest prefix (slot order) of the valid candidates whose
//    estimate P keeps P <= h0 + t2, h1 + t3 and h2 + t4. The running sums grow
//    with the slot, so slot s is in that prefix iff it is valid and its own
//    running sum fits: no chain between slots.
//  - Liveness: block_count_q counts consecutive throttled cycles
//    (admit_o != cand_valid_i); when it has reached max_block_i the whole
//    valid set passes. enable_i low: everything passes.
//  - admit_o, predict_o, throttled_o are combinational (Mealy); h*_o and
//    block_count_o are registers. Reset: all 0.
//
// Class codes: gpupm_pkg's Class*. 1 <= SLOTS <= 4 (checked at elaboration:
// four 63-weight candidates fill the 8-bit estimate).
module droop_predictor #(
  parameter int unsigned SLOTS = 2
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [SLOTS-1:0]   cand_valid_i,
  input  logic [2*SLOTS-1:0] cand_class_i,
  input  logic               enable_i,
  input  logic [23:0]        weights_i,
  input  logic [7:0]         t2_i,
  input  logic [7:0]         t3_i,
  input  logic [7:0]         t4_i,
  input  logic [2:0]         max_block_i,
  output logic [SLOTS-1:0]   admit_o,
  output logic               predict_o,
  output logic               throttled_o,
  output logic [7:0]         h0_o,
  output logic [7:0]         h1_o,
  output logic [7:0]         h2_o,
  output logic [2:0]         block_count_o
);

  if (SLOTS < 1 || SLOTS > 4) begin : gen_bad_slots
    $error("droop_predictor: SLOTS must be 1..4");
  end

  logic [7:0] h0_q, h1_q, h2_q;
  logic [2:0] block_count_q;

  // Class weight of each slot's candidate, and the running sums of the valid ones.
  logic [6*SLOTS-1:0] weight;
  logic [8*SLOTS-1:0] running;
  logic [7:0]         acc;

  always_comb begin
    acc = 8'd0;
    for (int s = 0; s < SLOTS; s++) begin
      unique case (cand_class_i[2*s +: 2])
        gpupm_pkg::ClassAlu:  weight[6*s +: 6] = weights_i[5:0];
        gpupm_pkg::ClassSfu:  weight[6*s +: 6] = weights_i[11:6];
        gpupm_pkg::ClassLdst: weight[6*s +: 6] = weights_i[17:12];
        default:              weight[6*s +: 6] = weights_i[23:18];  // gpupm_pkg::ClassOther
      endcase
      if (cand_valid_i[s]) begin
        acc = acc + {2'b00, weight[6*s +: 6]};
      end
      running[8*s +: 8] = acc;
    end
  end

  // Ceilings: an estimate fits when it stays within all three increments.
  logic [8:0] lim2, lim3, lim4;
  assign lim2 = {1'b0, h0_q} + {1'b0, t2_i};
  assign lim3 = {1'b0, h1_q} + {1'b0, t3_i};
  assign lim4 = {1'b0, h2_q} + {1'b0, t4_i};

  logic [SLOTS-1:0] prefix;
  logic             forced;
  logic [SLOTS-1:0] admit;
  logic [7:0]       admitted;

  always_comb begin
    for (int s = 0; s < SLOTS; s++) begin
      prefix[s] = cand_valid_i[s] && {1'b0, running[8*s +: 8]} <= lim2 &&
                  {1'b0, running[8*s +: 8]} <= lim3 && {1'b0, running[8*s +: 8]} <= lim4;
    end
  end

  assign predict_o = {1'b0, running[8*SLOTS-1 -: 8]} > lim2 || {1'b0, running[8*SLOTS-1 -: 8]} > lim3 ||
                     {1'b0, running[8*SLOTS-1 -: 8]} > lim4;
  assign forced    = block_count_q >= max_block_i;
  assign admit     = (!enable_i || forced) ? cand_valid_i : prefix;

  always_comb begin
    admitted = 8'd0;
    for (int s = 0; s < SLOTS; s++) begin
      if (admit[s]) begin
        admitted = admitted + {2'b00, weight[6*s +: 6]};
      end
    end
  end

  assign admit_o     = admit;
  assign throttled_o = admit != cand_valid_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      h0_q          <= 8'd0;
      h1_q          <= 8'd0;
      h2_q          <= 8'd0;
      block_count_q <= 3'd0;
    end else begin
      h0_q          <= admitted;
      h1_q          <= h0_q;
      h2_q          <= h1_q;
      block_count_q <= throttled_o ? block_count_q + 3'd1 : 3'd0;
    end
  end

  assign h0_o          = h0_q;
  assign h1_o          = h1_q;
  assign h2_o          = h2_q;
  assign block_count_o = block_count_q;

endmodule
