// A platform's module plugin (a shared library loaded at run time) with the
// installed model linked into it: it needs the model library position-
// independent. It reads the shipped GPU config, as consumer.cc does.
#include <gpupm/common/data_dir.h>
#include <gpupm/common/json_reader.h>
#include <gpupm/platform/gpu_config.h>

#include <cstdint>

extern "C" uint32_t gpupm_consumer_module_sms() {
  gpupm::set_data_dir(GPUPM_INSTALLED_DATA_DIR);
  const std::string file = gpupm::data_file("configs/gpu/gtx480.json");
  return gpupm::load_gpu_config(file).sm.count;
}
