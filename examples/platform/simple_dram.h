// The platform's own DRAM (docs/embedding.md#external-memory): one target
// socket that every SM's mem_out binds to, AT base protocol. A request is
// answered `latency` after it is taken; at most `banks` are in service at once,
// and a request beyond that waits for END_REQ (back-pressure into the SM).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_get.h>

#include <cstdint>
#include <deque>
#include <map>

class SimpleDram : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<SimpleDram> in{"in"};

  SimpleDram(sc_core::sc_module_name name, sc_core::sc_time latency, unsigned banks);

  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t held_back() const { return held_back_; }  // requests that waited for a free bank

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void start_service(tlm::tlm_generic_payload& gp);
  void respond();  // at each due time: BEGIN_RESP, then the next waiting request takes the bank
  void send_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase phase);

  const sc_core::sc_time latency_;
  const unsigned banks_;
  unsigned busy_banks_ = 0;
  uint64_t reads_ = 0, writes_ = 0, held_back_ = 0;
  std::deque<tlm::tlm_generic_payload*> waiting_;
  std::map<const tlm::tlm_generic_payload*, int> socket_of_;  // which SM's socket sent it
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> done_{"done"};
};
