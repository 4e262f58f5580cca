#include "gpupm/controllers/eq_sm_block_controller.h"

#include "gpupm/controllers/controller_factory.h"

namespace gpupm {

bool eq_sm_rtl_available(const EqSmParams& p, std::string* why) {
  return rtl_available<EqSmPorts, rtl_configs::eq_sm_block>(EqSmPorts::param_values(p), why);
}

std::unique_ptr<EqSmController> make_eq_sm_controller(ControllerImpl impl, const EqSmParams& p, uint32_t sm) {
  return make_controller<EqSmPorts, rtl_configs::eq_sm_block>(impl, p, int(sm));
}

}  // namespace gpupm
