#include "warmup/readiness_line.h"

#include <nlohmann/json.hpp>

namespace warmup {

std::string FormatReadinessLine(const ReadinessLine& line) {
  const nlohmann::ordered_json object = {
      {"pid", line.pid}, {"port", line.port}, {"system_port", line.system_port}, {"build", line.build}};
  // dump() escapes what JSON requires; invalid UTF-8 in a build string is
  // replaced rather than thrown about.
  return object.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

namespace {

// `object[key]` as a port-like integer in [low, 65535] into `*out`, or the error.
Status ReadPort(const nlohmann::json& object, const char* key, int low, int* out) {
  const auto& value = object[key];
  if (!value.is_number_integer())
    return InvalidArgumentError(std::string("\"") + key + "\" is not an integer");
  const auto number = value.get<long long>();
  if (number < low || number > 65535) {
    return InvalidArgumentError(std::string("\"") + key + "\" is " + std::to_string(number) + ", not in " +
                                std::to_string(low) + "..65535");
  }
  *out = static_cast<int>(number);
  return OkStatus();
}

}  // namespace

StatusOr<ReadinessLine> ParseReadinessLine(std::string_view text) {
  const auto parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return InvalidArgumentError("not a JSON object");
  if (!parsed.contains("port")) return InvalidArgumentError("no \"port\"");
  ReadinessLine line;
  if (auto s = ReadPort(parsed, "port", 1, &line.port); !s.ok()) return s;
  if (parsed.contains("system_port")) {
    if (auto s = ReadPort(parsed, "system_port", 0, &line.system_port); !s.ok()) return s;
  }
  if (parsed.contains("pid")) {
    const auto& pid = parsed["pid"];
    if (!pid.is_number_integer() || pid.get<long long>() <= 0 || pid.get<long long>() > 0x7fffffff) {
      return InvalidArgumentError("\"pid\" is not a process id: " + pid.dump());
    }
    line.pid = pid.get<int>();
  }
  if (parsed.contains("build")) {
    if (!parsed["build"].is_string()) return InvalidArgumentError("\"build\" is not a string");
    line.build = parsed["build"].get<std::string>();
  }
  return line;
}

}  // namespace warmup
