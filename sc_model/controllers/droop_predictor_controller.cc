#include "gpupm/controllers/droop_predictor_controller.h"

#include "gpupm/controllers/controller_factory.h"

namespace gpupm {

bool droop_pred_rtl_available(const DroopPredParams& p, std::string* why) {
  return rtl_available<DroopPredPorts, rtl_configs::droop_predictor>(DroopPredPorts::param_values(p), why);
}

std::unique_ptr<DroopPredController> make_droop_pred_controller(ControllerImpl impl, const DroopPredParams& p,
                                                                uint32_t sm) {
  return make_controller<DroopPredPorts, rtl_configs::droop_predictor>(impl, p, int(sm));
}

}  // namespace gpupm
