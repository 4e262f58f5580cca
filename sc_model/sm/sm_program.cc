// The SM's side of program workloads: warps that execute their PTX at issue
// (sc_model/ptx/), with a per-register scoreboard, coalesced line lists for
// the LSU, a banked shared-memory pipe and global atomics at the L2.
#include "gpupm/sm/streaming_multiprocessor.h"

#include <stdexcept>

namespace gpupm {

static_assert(ptx::kAluGroups == 7, "SmConfig::opcode_timing's lists have one entry per ptx::AluGroup");

// A divide's SFU timing depends on its type; every other SFU instruction's is the SFU's.
StreamingMultiprocessor::AluTiming StreamingMultiprocessor::sfu_timing(const ptx::InstInfo& info) const {
  if (info.alu_group == ptx::AluGroup::Div) return div_sfu_timing_[size_t(info.alu_type)];
  return {cfg_.sfu_latency, cfg_.sfu_interval, cfg_.sfu_latency};
}

// Reads the head's register sources through the banks: the cycles its dispatch waits.
[[gnu::always_inline]] inline uint32_t StreamingMultiprocessor::collect_operands(uint16_t slot, uint64_t c) {
  const ptx::InstInfo& info = *warps_[slot].program.head_info;
  if (info.cls == ptx::TimingClass::Barrier) return 0;
  return collector_.collect(collector_pool(info.cls), c, slot, info.src.data(), info.n_bank_src);
}

[[gnu::always_inline]] inline void StreamingMultiprocessor::write_back(uint16_t slot, uint64_t ready, uint8_t n,
                                                                       const uint16_t* regs) {
  for (uint8_t i = 0; i < n; ++i) collector_.write_back(ready, slot, regs[i]);
}

template <bool kFrontEnd>
void StreamingMultiprocessor::issue_program(uint16_t slot, uint64_t c) {
  WarpSlot& w = warps_[slot];
  ProgramWarp& p = w.program;
  const ptx::InstInfo& info = *p.head_info;
  const uint8_t n_dst = info.n_dst, n_bank_dst = info.n_bank_dst;
  const std::array<uint16_t, 4> dst = info.dst;
  const uint32_t bank_wait = collect_operands(slot, c);
  const ptx::StepResult r = p.exec.step(c);  // ptx::ExecError: a run failure naming the lane and address
  if (info.gpu_fence && r.active && cfg_.l1_invalidate_fence) lsu_.invalidate_all();
  ++ctas_[w.cta_slot].launch->executed_insts;
  issued_any_ = true;
  w.issued_at = c;
  ++c_.insts;
  // Results of a unit that waited for its operands come that much later.
  auto set_dst = [&](uint64_t ready) {
    if (ready != Scoreboard::kPending) {
      ready += bank_wait;
      write_back(slot, ready, n_bank_dst, dst.data());
    }
    p.regs.set(dst.data(), n_dst, ready);
  };
  // Fewer lanes than the warp has threads: a divergent path or lanes already exited.
  const bool divergent = r.active != p.lanes;
  const bool to_lsu =
      (r.cls == ptx::TimingClass::Load || r.cls == ptx::TimingClass::Store || r.cls == ptx::TimingClass::Atomic) &&
      r.n_lines > 0;
  w.issued_mem = to_lsu;
  switch (r.cls) {
    case ptx::TimingClass::Alu:
    case ptx::TimingClass::Sfu: {
      const bool alu = r.cls == ptx::TimingClass::Alu;
      const AluTiming timing = alu ? alu_timing_[size_t(info.alu_type)][size_t(info.alu_group)] : sfu_timing(info);
      const uint32_t busy = timing.interval;
      ++(alu ? c_.alu_insts : c_.sfu_insts);
      c_.valu_busy_cycles += busy;
      c_.divergent_insts += divergent;
      uint32_t wait = 0;  // for the cycle its result comes in
      if (alu) wait = issue_.enter_alu(slot, c, bank_wait, timing.result_stage, busy);
      else issue_.occupy_sfu(c + busy);
      set_dst(c + wait + cfg_.operand_latency + timing.latency);
      break;
    }
    case ptx::TimingClass::Shared: {
      // Bank conflicts replay the access: the pipe is busy once per conflicting word.
      const uint32_t busy = cfg_.shared_interval * std::max<uint32_t>(1, r.shared_cycles);
      ++c_.mem_insts;
      const uint64_t start = issue_.enter_shared(c, busy);
      set_dst(start + cfg_.operand_latency + cfg_.shared_latency + busy - cfg_.shared_interval);
      break;
    }
    case ptx::TimingClass::Load:
    case ptx::TimingClass::Store:
    case ptx::TimingClass::Atomic: {
      if (!to_lsu) {  // every lane guarded off: nothing to fetch
        set_dst(c + 1);
        break;
      }
      if (!lsu_.can_accept()) throw std::logic_error("gpupm/sm: a memory instruction issued to a full LSU");
      if (r.shared_cycles) issue_.enter_shared(c, cfg_.shared_interval * r.shared_cycles);  // generic, mixed
      ++c_.mem_insts;
      ++issued_mem_at_last_;
      Inst in;
      in.op = r.cls == ptx::TimingClass::Store ? InstClass::Store : InstClass::Load;
      in.atomic = r.cls == ptx::TimingClass::Atomic;
      in.lines = uint8_t(r.n_lines);
      in.line = r.lines[0];
      in.line_list = r.lines.data();
      if ((in.atomic && cfg_.atomic_transactions) || (in.op == InstClass::Store && cfg_.store_sectors))
        in.sector_list = r.sectors.data();
      const uint64_t tag = p.regs.new_tag();
      send_to_lsu(w, slot, tag, in);
      if (in.op == InstClass::Store) {
        set_dst(c + 1);
      } else {
        p.regs.expect_load(tag, n_dst, dst);
        ++w.pending_loads;
      }
      break;
    }
    case ptx::TimingClass::Barrier: arrive_at_barrier(w); break;
  }
  if constexpr (kFrontEnd) next_buffered(slot);
  else fetch_head(slot);
  refresh_issue(slot);
  warp_progress(slot);
}

template void StreamingMultiprocessor::issue_program<false>(uint16_t slot, uint64_t c);
template void StreamingMultiprocessor::issue_program<true>(uint16_t slot, uint64_t c);

void StreamingMultiprocessor::program_load_done(WarpSlot& w, uint64_t tag, uint64_t ready_cycle) {
  ProgramWarp& p = w.program;
  const uint16_t slot = uint16_t(&w - warps_.data());
  const bool back = p.regs.complete(tag, ready_cycle,
                                    [&](uint8_t n, const uint16_t* regs) { write_back(slot, ready_cycle, n, regs); });
  if (back && w.has_head) p.head_ready_at = registers_ready(p);
}

}  // namespace gpupm
