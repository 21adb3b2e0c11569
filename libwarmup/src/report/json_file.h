// Reading a JSON document that names its schema (run reports). Internal.
#ifndef WARMUP_SRC_REPORT_JSON_FILE_H_
#define WARMUP_SRC_REPORT_JSON_FILE_H_

#include <nlohmann/json.hpp>
#include <string>

#include "warmup/status.h"

namespace warmup::report {

// The JSON object in `file`. Errors: kNotFound "FILE: cannot be read";
// kInvalidArgument "FILE: not JSON" when it does not parse or is not an object.
StatusOr<nlohmann::json> ReadJsonObject(const std::string& file);

}  // namespace warmup::report

#endif  // WARMUP_SRC_REPORT_JSON_FILE_H_
