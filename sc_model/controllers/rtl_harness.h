// A Verilated controller top in plain C++ mode with its own context, clocked
// by hand (one rising edge per call), with optional VCD: the RTL side of
// Controller<> (controller_factory.h) and the testbenches' harness (tb/). Only
// compiled when the build links the Verilated models (GPUPM_HAVE_RTL).
//
// Environment:
//   GPUPM_RTL_VCD=DIR       every RTL block dumps DIR/<block>.vcd from reset
//                           (<block> = eq_sm_block_sm<i>, droop_predictor_sm<i>,
//                           vote_arbiter or stagger_unit); for short runs:
//                           about 65 KB per block and 1000 cycles
#pragma once

#ifdef GPUPM_HAVE_RTL

#include <verilated.h>
#include <verilated_vcd_c.h>

#include <cstdint>
#include <memory>
#include <string>

namespace gpupm::rtl {

// One Verilated top (clk_i, rst_ni) with its own context, one rising edge per
// tick(). `vcd_dir` (null or empty: none) gets <name>.vcd of the whole run.
template <class Top>
class Harness {
 public:
  Harness(const std::string& name, const char* vcd_dir) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(0);
    const bool vcd = vcd_dir && *vcd_dir;
    if (vcd) ctx_->traceEverOn(true);
    top_ = std::make_unique<Top>(ctx_.get(), name.c_str());
    if (vcd) {
      vcd_ = std::make_unique<VerilatedVcdC>();
      top_->trace(vcd_.get(), 99);
      vcd_path_ = std::string(vcd_dir) + "/" + name + ".vcd";
      vcd_->open(vcd_path_.c_str());
    }
    top_->clk_i = 0;
    top_->rst_ni = 1;
    eval();
  }
  ~Harness() {
    if (vcd_) vcd_->close();
    top_->final();
  }
  // Asynchronous reset: rst_ni falls (the model starts with every signal 0) and
  // is released, no clock edge.
  void reset() {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    eval();
    top_->rst_ni = 1;
    eval();
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  Top& top() { return *top_; }
  const std::string& vcd_path() const { return vcd_path_; }
  void flush() {
    if (vcd_) vcd_->flush();
  }

  // The inputs set by the caller settle with the clock low, no edge (to read
  // combinational outputs).
  void settle() {
    top_->clk_i = 0;
    eval();
  }

  // The inputs set by the caller settle with the clock low, then the rising edge.
  void tick() {
    top_->clk_i = 0;
    eval();
    top_->clk_i = 1;
    eval();
  }

 private:
  void eval() {
    top_->eval();
    if (vcd_) vcd_->dump(time_);
    ++time_;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  std::string vcd_path_;
  uint64_t time_ = 0;
};

}  // namespace gpupm::rtl

#endif  // GPUPM_HAVE_RTL
