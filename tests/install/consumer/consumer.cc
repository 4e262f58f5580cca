// An sc_main of a user's own linking the installed model: it points the model
// at the installed data (common/data_dir.h), reads the shipped GPU config and
// prints what the install test checks: the PDN package the config names,
// resolved against the data root, and the SM count.
#include <gpupm/common/data_dir.h>
#include <gpupm/common/json_reader.h>
#include <gpupm/platform/gpu_config.h>

#include <systemc>

#include <iostream>

int sc_main(int, char*[]) {
  gpupm::set_data_dir(GPUPM_INSTALLED_DATA_DIR);
  const std::string file = gpupm::data_file("configs/gpu/gtx480.json");
  const gpupm::GpuConfig gpu = gpupm::load_gpu_config(file);
  std::cout << "pdn_network " << gpu.pdn.network_file << "\nsms " << gpu.sm.count << "\n";
  return gpu.sm.count > 0 ? 0 : 1;
}
