#include "gpupm/controllers/vote_arbiter_controller.h"

#include "gpupm/controllers/controller_factory.h"

namespace gpupm {

bool vote_arbiter_rtl_available(uint32_t n_sms, std::string* why) {
  return rtl_available<VoteArbiterPorts, rtl_configs::vote_arbiter>({n_sms}, why);
}

std::unique_ptr<VoteArbiterController> make_vote_arbiter_controller(ControllerImpl impl, const VoteArbiterParams& p) {
  return make_controller<VoteArbiterPorts, rtl_configs::vote_arbiter>(impl, p, -1);
}

}  // namespace gpupm
