// The codes the controller blocks' ports carry, in one place. Each is the
// value of a C++ enum of the golden models; change both together:
//
//   Vote*    VfVote          sc_model/controllers/vote_arbiter.h (3 is reserved, reads as NONE)
//   Delta*   int8_t -1/0/+1  EqDecision::block_delta, EqSmOut::blk_req (eq_decision.h, eq_sm_block.h),
//                            2-bit two's complement on the wire (EqSmPorts::to_raw, eq_sm_block_ports.h)
//   Branch*  EqBranch        sc_model/controllers/eq_decision.h
//   Level*   VfLevelCode     sc_model/controllers/vote_arbiter.h
//   Act*     ArbiterAction   sc_model/controllers/vote_arbiter.h
//   Class*   DispatchClass   sc_model/controllers/droop_predictor.h
//   Policy*  StaggerPolicy   sc_model/controllers/stagger_unit.h
//
// Read it first (rtl.cmake's source lists, scripts/rtl/synth.py) and name its
// items qualified (gpupm_pkg::VoteComp): Yosys 0.23 has no `import`.
package gpupm_pkg;

  // Each top uses only some of these codes.
  /* verilator lint_off UNUSEDPARAM */

  localparam logic [1:0] VoteNone = 2'd0;
  localparam logic [1:0] VoteComp = 2'd1;
  localparam logic [1:0] VoteMem  = 2'd2;

  localparam logic [1:0] DeltaZero  = 2'b00;
  localparam logic [1:0] DeltaPlus  = 2'b01;
  localparam logic [1:0] DeltaMinus = 2'b11;

  localparam logic [2:0] BranchDegenerate = 3'd0;
  localparam logic [2:0] BranchMemDef     = 3'd1;
  localparam logic [2:0] BranchCompDef    = 3'd2;
  localparam logic [2:0] BranchMemLikely  = 3'd3;
  localparam logic [2:0] BranchUnsatComp  = 3'd4;
  localparam logic [2:0] BranchUnsatMem   = 3'd5;
  localparam logic [2:0] BranchIdle       = 3'd6;

  localparam logic [1:0] LevelLow    = 2'd0;
  localparam logic [1:0] LevelNormal = 2'd1;
  localparam logic [1:0] LevelHigh   = 2'd2;

  localparam logic [2:0] ActNone    = 3'd0;
  localparam logic [2:0] ActStep    = 3'd1;
  localparam logic [2:0] ActRestore = 3'd2;
  localparam logic [2:0] ActAtLimit = 3'd3;
  localparam logic [2:0] ActIgnored = 3'd4;

  localparam logic [1:0] ClassAlu   = 2'd0;
  localparam logic [1:0] ClassSfu   = 2'd1;
  localparam logic [1:0] ClassLdst  = 2'd2;
  localparam logic [1:0] ClassOther = 2'd3;

  localparam logic [1:0] PolicyUniform    = 2'd0;
  localparam logic [1:0] PolicyCumulative = 2'd1;
  localparam logic [1:0] PolicyGrouped    = 2'd2;

  /* verilator lint_on UNUSEDPARAM */

endpackage
