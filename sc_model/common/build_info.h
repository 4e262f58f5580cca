// Provenance of this gpupm build, written into every report.json,
// summary.json and results.csv and into each run's fingerprint: the version
// (`git describe --always --dirty` at build time, "unknown" outside git) and
// the build id (a hash of the model's sources, so two builds of the same
// sources agree and any source change gives a new id). Defined in a source
// that cmake/build_info.cmake generates at every build.
#pragma once

namespace gpupm {

const char* gpupm_version();
const char* gpupm_build_id();

}  // namespace gpupm
