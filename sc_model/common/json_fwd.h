// The JSON names a declaration needs without nlohmann's whole header (about 0.9 s of a compiler's
// time in every file that includes it): the document type and the reader passed by reference.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace gpupm {

using Json = nlohmann::json;
class JsonReader;  // common/json_reader.h

}  // namespace gpupm
