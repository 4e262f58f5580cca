// The SMs' memory side when the GPU config says memory.system "external": no
// interconnect, L2 or DRAM of the model's own; each SM's line requests go out
// on mem_out[i] to the platform's interconnect or memory (docs/embedding.md#external-memory).
//
// Transactions pass through unchanged (the same payload object, phase and
// return value) in both directions, so the platform's target sees exactly what
// MemorySystem's sm_in sees (mem/memory_system.h has the protocol): BEGIN_REQ
// of a line_bytes read or write; END_REQ as the return (TLM_UPDATED) or later
// on the backward path, the SM sending nothing else on that socket until then;
// BEGIN_RESP on the backward path, which the SM completes (TLM_COMPLETED, no
// END_RESP). A BEGIN_RESP without END_REQ first ends the request too (the
// base protocol's implicit END_REQ). Timing is the target's: it calls the
// backward path at the time the phase happens, with a zero delay annotation.
//
// With memory.protocol "lt" the platform's memory is loosely timed instead:
// each BEGIN_REQ becomes one b_transport call on mem_out[i] (the same payload,
// a zero delay in), made from that SM's thread at the time of the request; the
// SM gets END_REQ when the call returns (a target that waits inside holds the
// SM's next request back, as a late END_REQ does) and BEGIN_RESP after the
// call's annotated delay. The target's nb_transport is never called.
//
// With memory.data "platform" a program's data is the platform's too (data(),
// mem/platform_data.h): DMI or debug transport on the same sockets.
//
// Counted on the way (activity()): line reads and writes at END_REQ, read
// responses and their END_REQ -> BEGIN_RESP latency. Nothing behind the socket
// (L2 hits, interconnect flits, DRAM commands) is seen: those counters stay 0.
#pragma once

#include "gpupm/mem/platform_data.h"
#include "gpupm/protocol/memory_status.h"

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <unordered_map>
#include <vector>

namespace gpupm {

class ExternalMemoryPort : public sc_core::sc_module, public MemoryStatus {
 public:
  using Socket = tlm_utils::simple_initiator_socket_tagged<ExternalMemoryPort>;

  tlm_utils::multi_passthrough_target_socket<ExternalMemoryPort> sm_in;  // bound by SM i in order i
  sc_core::sc_vector<Socket> mem_out;                                    // SM i's requests: mem_out[i]

  ExternalMemoryPort(sc_core::sc_module_name name, uint32_t sms, bool loosely_timed = false);

  const MemActivity& activity() const override { return act_; }
  // The platform's memory as a program's global memory (memory.data "platform").
  PlatformData& data() { return data_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void accepted(int port, const tlm::tlm_generic_payload& gp);  // END_REQ
  void responded(const tlm::tlm_generic_payload& gp);           // BEGIN_RESP
  void invalidate_dmi(int port, sc_dt::uint64 start, sc_dt::uint64 end) {
    data_.invalidate(uint32_t(port), start, end);
  }
  void require_zero_delay(const sc_core::sc_time& delay, const char* phase) const;
  // memory.protocol "lt": SM `port`'s requests, one b_transport each; responses at their time.
  void lt_requests(int port);
  void lt_responses();

  MemActivity act_;
  PlatformData data_;
  std::vector<const tlm::tlm_generic_payload*> awaiting_end_req_;  // per port
  std::unordered_map<const tlm::tlm_generic_payload*, sc_core::sc_time> accepted_at_;
  // memory.protocol "lt"
  struct LtPort {
    tlm::tlm_generic_payload* request = nullptr;  // the SM's request not yet handed to b_transport
    sc_core::sc_event arrived;
  };
  std::vector<LtPort> lt_;  // per port; empty with "at"
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> lt_due_{"lt_due"};
  std::unordered_map<const tlm::tlm_generic_payload*, int> lt_port_of_;
};

}  // namespace gpupm
