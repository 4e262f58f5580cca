// Non-memory content carried over TLM sockets: generic payloads whose meaning
// lives in one of these extensions. send() builds the payload and calls
// b_transport; the receiver reads the extension with payload.get_extension().
#pragma once

#include <systemc>
#include <tlm>

namespace gpupm {

template <class T>
struct Message : tlm::tlm_extension<T> {
  tlm::tlm_extension_base* clone() const override { return new T(static_cast<const T&>(*this)); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    static_cast<T&>(*this) = static_cast<const T&>(other);
  }
};

// Zero-time b_transport of one message through an initiator socket; returns
// the receiver's response status (a receiver that refuses a message sets an
// error status; most leave it unset). The extension is detached before return.
template <class Socket, class Msg>
tlm::tlm_response_status send(Socket&& socket, Msg& msg) {
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_IGNORE_COMMAND);
  gp.set_extension(&msg);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(gp, delay);
  gp.clear_extension(&msg);
  return gp.get_response_status();
}

}  // namespace gpupm
