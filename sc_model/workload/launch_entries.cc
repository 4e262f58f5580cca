#include "gpupm/workload/launch_entries.h"

namespace gpupm {

EntryLaunchSource* entry_source(const Workload& w) {
  return w.apps.size() == 1 ? dynamic_cast<EntryLaunchSource*>(w.apps[0].source.get()) : nullptr;
}

size_t launch_entries(const Workload& w) {
  if (w.apps.size() > 1) return 0;
  if (EntryLaunchSource* program = entry_source(w)) return program->entry_count();
  return w.launches.size();
}

}  // namespace gpupm
