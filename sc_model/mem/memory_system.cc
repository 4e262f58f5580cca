#include "gpupm/mem/memory_system.h"

#include "gpupm/clock/time_now.h"
#include "gpupm/mem/address_map.h"
#include "gpupm/mem/dram_channel.h"
#include "gpupm/mem/interconnect.h"
#include "gpupm/mem/l2_slice.h"
#include "gpupm/mem/mem_request.h"
#include "gpupm/mem/ratio_clock.h"
#include "gpupm/protocol/memory_access.h"

#include <algorithm>
#include <stdexcept>

namespace gpupm {

using tlm::tlm_generic_payload;
using tlm::tlm_phase;
using tlm::tlm_sync_enum;

namespace {

constexpr uint64_t kAddressLimit = kAddressSpaceBytes;

const MemConfig& checked(const MemConfig& cfg) {
  if (auto p = check_mem_config(cfg)) throw std::invalid_argument("MemConfig." + p->key + ": " + p->what);
  return cfg;
}

}  // namespace

struct MemorySystem::Impl {
  explicit Impl(const MemConfig& c)
      : cfg(checked(c)),
        map(cfg),
        line(cfg.line_bytes),
        l2(RatioClock::from_ratio(cfg.l2_clock_ratio)),
        pool(size_t(cfg.channels) * (cfg.icnt_queue + cfg.l2_mshrs) * 2),
        requests(cfg),
        responses(cfg, pool),
        read_flits(cfg.line_bytes / cfg.flit_bytes) {
    dram.reserve(cfg.channels);
    slices.reserve(cfg.channels);
    for (uint32_t ch = 0; ch < cfg.channels; ++ch) {
      dram.emplace_back(cfg);
      slices.emplace_back(cfg, ch);
    }
    accepted.reserve(cfg.icnt_queue);
  }

  void count(DramCommand cmd) {
    act.dram_activates += cmd.op == DramOp::kActivate;
    act.dram_precharges += cmd.op == DramOp::kPrecharge;
    act.dram_reads += cmd.op == DramOp::kRead;
    act.dram_writes += cmd.op == DramOp::kWrite;
    if (cmd.op == DramOp::kRead || cmd.op == DramOp::kWrite)  // every channel has the same bursts
      act.dram_bus_busy += dram.front().burst_cycles(cmd.op == DramOp::kWrite);
  }
  void count_l2_edges(uint64_t edges) { act.l2_cycles = std::max(act.l2_cycles, edges); }

  bool idle() const {
    if (!requests.empty() || !responses.empty()) return false;
    for (uint32_t ch = 0; ch < cfg.channels; ++ch)
      if (!dram[ch].idle() || slices[ch].next_fill() != kNever) return false;
    return true;
  }

  MemConfig cfg;
  AddressMap map;
  Divisor line;  // by line_bytes
  RatioClock l2;
  RequestPool pool;
  RequestNetwork requests;
  ResponseNetwork responses;
  std::vector<DramChannel> dram;
  std::vector<L2Slice> slices;
  uint32_t read_flits;
  std::vector<uint8_t> port_parked;  // a BEGIN_REQ waits for END_REQ on this port
  std::vector<uint32_t> accepted;    // scratch: parked requests accepted this cycle
  // MemConfig::l2_clock "core": the SM clock the L2 follows, and the periods last seen.
  const ClockDomain* sm_clock = nullptr;
  sc_core::sc_time sm_period, mem_period;
  // Live counters: readers may keep the reference activity() returns, so every
  // field is updated in place when its event happens.
  MemActivity act;
  uint64_t last_tick = 0;
  uint64_t planned_tick = 0;  // what next_busy_cycle() last answered
  bool in_tick = false;
  bool wake_sent = false;
};

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemConfig& cfg, ClockDomain& clock)
    : sc_module(name), sm_in("sm_in"), impl_(std::make_unique<Impl>(cfg)), clock_(clock) {
  sm_in.register_nb_transport_fw(this, &MemorySystem::nb_transport_fw);
  clock.add(this);
}

MemorySystem::~MemorySystem() = default;

void MemorySystem::end_of_elaboration() {
  impl_->port_parked.assign(sm_in.size(), 0);
  impl_->responses.set_ports(uint32_t(sm_in.size()));
}

tlm_sync_enum MemorySystem::nb_transport_fw(int port, tlm_generic_payload& gp, tlm_phase& phase, sc_core::sc_time&) {
  Impl& m = *impl_;
  if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(name(), "unexpected phase on sm_in");
    return tlm::TLM_COMPLETED;
  }
  if (m.port_parked[port]) SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ of the previous one");
  if (!gp.is_read() && !gp.is_write()) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  uint64_t addr = gp.get_address();
  if (gp.get_data_length() != m.cfg.line_bytes || m.line.mod(addr) != 0 || addr >= kAddressLimit) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  uint64_t line = m.line.div(addr);
  uint32_t id = m.pool.alloc();
  MemRequest& r = m.pool[id];
  r.gp = &gp;
  r.port = uint32_t(port);
  const LinePlace place = m.map.place(line);
  r.slice = place.channel;
  r.local_line = place.local_line;
  r.write = gp.is_write();
  if (const auto* part = gp.get_extension<LineSectors>()) {
    r.sectors = part->sectors;
    r.atomic = part->atomic;
  }
  if (!m.requests.has_credit(r.slice)) {
    m.requests.park(id, r.slice);
    m.port_parked[port] = 1;
    return tlm::TLM_ACCEPTED;  // a full input is busy already: no wake needed
  }
  m.requests.stage(id, r.slice);
  accept(id);
  wake_if_sleeping();
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void MemorySystem::accept(uint32_t id) {
  Impl& m = *impl_;
  MemRequest& r = m.pool[id];
  r.accepted = time_now(*this);
  ++(r.write ? m.act.writes : m.act.reads);
  m.act.icnt_flits += r.write ? m.responses.data_flits(r) : 1;  // a write carries its data
}

void MemorySystem::send_end_req(uint32_t id) {
  Impl& m = *impl_;
  const MemRequest& r = m.pool[id];
  uint32_t port = r.port;
  tlm_generic_payload& gp = *r.gp;
  m.port_parked[port] = 0;
  tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  sm_in[int(port)]->nb_transport_bw(gp, phase, delay);
}

void MemorySystem::deliver(uint32_t id) {
  Impl& m = *impl_;
  const MemRequest& r = m.pool[id];
  uint32_t port = r.port;
  tlm_generic_payload& gp = *r.gp;
  m.act.icnt_flits += m.responses.flits_of(r);
  if (!r.write) {
    ++m.act.read_responses;
    m.act.read_latency_sum_ps += rounded_picoseconds(time_now(*this) - r.accepted);
  }
  m.pool.release(id);  // before the call: the SM may send a new request from it
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  sm_in[int(port)]->nb_transport_bw(gp, phase, delay);  // TLM_COMPLETED or END_RESP: done
}

void MemorySystem::wake_if_sleeping() {
  Impl& m = *impl_;
  if (m.in_tick || m.wake_sent || m.planned_tick <= m.last_tick + 1) return;
  m.wake_sent = true;
  clock_.wake();
}

void MemorySystem::tick(uint64_t cycle) {
  Impl& m = *impl_;
  m.in_tick = true;
  m.last_tick = cycle;
  m.wake_sent = false;
  if (m.sm_clock) follow_sm_clock_at(cycle);
  // The L2 edges of this command cycle: at most one while the L2 clock is the
  // slower (l2_clock_ratio <= 1), possibly several when it follows a faster SM clock.
  const uint64_t first_k = m.l2.first_at_or_after(cycle), last_k = m.l2.index_at(cycle);
  m.requests.enter_staged(first_k);
  // DRAM first: a request the L2 queues in this cycle is seen from the next one.
  for (uint32_t ch = 0; ch < m.cfg.channels; ++ch) {
    uint32_t mshr;
    uint64_t done;
    while (m.dram[ch].pop_read_done(cycle, &mshr, &done))
      m.slices[ch].schedule_fill(mshr, m.l2.first_at_or_after(done) + m.cfg.dram_latency);
    const DramCommand command = m.dram[ch].step(cycle);
    if (command.op != DramOp::kNone) m.count(command);
  }
  for (uint64_t k = first_k; k <= last_k; ++k) {
    for (uint32_t s = 0; s < m.cfg.channels; ++s) {
      L2Slice& slice = m.slices[s];
      slice.fill_due(k, m.pool, m.responses);
      if (!slice.port_free(k)) continue;
      uint64_t lookups = 0;  // of the head looked up
      do {                   // as many heads as the slice's lookup port takes this cycle
        const uint32_t id = m.requests.ready_head(s, k);
        if (id == kNoRequest) break;
        lookups = slice.port_lookups(m.pool[id]);
        const L2Outcome outcome = slice.lookup(id, k, m.pool, m.dram[s], m.responses);
        if (outcome == L2Outcome::kStall) break;  // head-of-line: retried next L2 cycle
        ++(outcome == L2Outcome::kHit ? m.act.l2_hits : m.act.l2_misses);
        m.requests.pop_head(s);
        // The freed credit goes to a parked request; END_REQ only once the state
        // is consistent, since the SM may send its next request from inside it.
        m.accepted.clear();
        m.requests.admit_parked(s, k, m.accepted);
        for (uint32_t a : m.accepted) accept(a);
        for (uint32_t a : m.accepted) send_end_req(a);
      } while (slice.take_port(k, lookups));
    }
    m.responses.step(k, [this](uint32_t id) { deliver(id); });
  }
  m.count_l2_edges(last_k + 1);
  m.in_tick = false;
}

uint64_t MemorySystem::next_busy_cycle(uint64_t now) const {
  const Impl& m = *impl_;
  // Any answer at or before now + 1 is now + 1: the rest is looked at only while it could be later
  // (in memory-bound phases a DRAM queue is rarely empty).
  uint64_t next = m.requests.has_staged() ? now + 1 : kNever;
  for (uint32_t ch = 0; ch < m.cfg.channels && next > now + 1; ++ch) {
    if (m.dram[ch].has_queued()) next = now + 1;
    next = std::min(next, m.dram[ch].next_read_done());
  }
  if (next > now + 1) {
    uint64_t l2_ready = std::min(m.requests.next_ready(), m.responses.next_ready());
    for (uint32_t ch = 0; ch < m.cfg.channels; ++ch) l2_ready = std::min(l2_ready, m.slices[ch].next_fill());
    if (l2_ready != kNever) {
      uint64_t first_l2 = m.l2.first_at_or_after(now + 1);
      next = std::min(next, m.l2.cmd_of(std::max(l2_ready, first_l2)));
    }
  }
  if (next != kNever) next = std::max(next, now + 1);
  impl_->planned_tick = next;
  return next;
}

void MemorySystem::host_copied(uint64_t address, uint64_t bytes) {
  Impl& m = *impl_;
  if (!m.cfg.l2_copy_fill || bytes == 0 || address >= kAddressLimit) return;
  const uint64_t last = m.line.div(std::min(address + bytes, kAddressLimit) - 1);
  for (uint64_t line = m.line.div(address); line <= last; ++line) {
    const LinePlace place = m.map.place(line);
    m.slices[place.channel].install_copy(place.local_line);
  }
}

void MemorySystem::follow_sm_clock(const ClockDomain& sm_clock) {
  if (!impl_->cfg.l2_follows_core) return;
  impl_->sm_clock = &sm_clock;
}

// A changed SM or memory clock changes the L2's ratio to the command clock from this edge on.
void MemorySystem::follow_sm_clock_at(uint64_t cycle) {
  Impl& m = *impl_;
  if (m.sm_clock->period() == m.sm_period && clock_.period() == m.mem_period) return;
  m.sm_period = m.sm_clock->period();
  m.mem_period = clock_.period();
  m.l2.retime(cycle, RatioClock::from_ratio(m.mem_period.to_seconds() / m.sm_period.to_seconds()));
}

const MemActivity& MemorySystem::activity() const {
  // l2_cycles also advances at every tick; here it catches up with edges skipped
  // since (time-based, so an idle stretch counts too).
  if (clock_.ticks_run() > 0) impl_->count_l2_edges(impl_->l2.edges_through(clock_.cycles_elapsed()));
  return impl_->act;
}

bool MemorySystem::idle() const { return impl_->idle(); }

}  // namespace gpupm
