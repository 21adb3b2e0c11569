#include "report/json_file.h"

#include <fstream>

namespace warmup::report {

StatusOr<nlohmann::json> ReadJsonObject(const std::string& file) {
  std::ifstream in(file);
  if (!in) return NotFoundError(file + ": cannot be read");
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return InvalidArgumentError(file + ": not JSON");
  return doc;
}

}  // namespace warmup::report
