#include "gpupm/controllers/stagger_unit_controller.h"

#include "gpupm/controllers/controller_factory.h"

namespace gpupm {

bool stagger_rtl_available(const StaggerParams& p, std::string* why) {
  return rtl_available<StaggerPorts, rtl_configs::stagger_unit>(StaggerPorts::param_values(p), why);
}

std::unique_ptr<StaggerController> make_stagger_controller(ControllerImpl impl, const StaggerParams& p) {
  return make_controller<StaggerPorts, rtl_configs::stagger_unit>(impl, p, -1);
}

}  // namespace gpupm
