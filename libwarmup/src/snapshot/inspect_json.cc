// SnapshotInfo as JSON; its own file so that only it compiles nlohmann/json's
// heavy header among the inspection code.
#include <nlohmann/json.hpp>

#include "warmup/snapshot.h"

namespace warmup {

std::string SnapshotInfoToJson(const SnapshotInfo& info) {
  nlohmann::json collections = nlohmann::json::array();
  for (const auto& c : info.collections) {
    collections.push_back({{"entity_type", c.entity_type},
                           {"count", c.count},
                           {"stored_bytes", c.stored_bytes},
                           {"serialized_bytes", c.serialized_bytes},
                           {"file", c.file},
                           {"per_entity",
                            {{"global_attributes", c.global_attributes},
                             {"localized_attributes", c.localized_attributes},
                             {"prices", c.prices},
                             {"associated_data_bytes", c.associated_data_bytes},
                             {"references", c.references}}}});
  }
  nlohmann::json doc = {
      {"schema", "warmup-inspect/1"},      {"path", info.path},
      {"catalog", info.catalog},           {"format_version", info.format_version},
      {"fingerprint", info.fingerprint},   {"provenance", info.provenance},
      {"total_count", info.total_count()}, {"total_stored_bytes", info.total_stored_bytes()},
      {"checksums_verified", true},        {"collections", std::move(collections)}};
  return doc.dump(2) + "\n";
}

}  // namespace warmup
