// InspectSnapshot: reads a whole snapshot, verifies it, and summarises it.
#include "codec/value_convert.h"
#include "snapshot/snapshot_source.h"
#include "warmup/snapshot.h"

namespace warmup {

int64_t SnapshotInfo::total_count() const {
  int64_t total = 0;
  for (const auto& c : collections) total += c.count;
  return total;
}

int64_t SnapshotInfo::total_stored_bytes() const {
  int64_t total = 0;
  for (const auto& c : collections) total += c.stored_bytes;
  return total;
}

StatusOr<SnapshotInfo> InspectSnapshot(const std::string& path) {
  auto source = snapshot::SnapshotSource::Open(path);
  if (!source.ok()) return source.status();
  const snapshot::Manifest& manifest = (*source)->manifest();
  SnapshotInfo info;
  info.path = path;
  info.catalog = manifest.catalog;
  info.format_version = manifest.format_version;
  info.fingerprint = (*source)->Fingerprint();
  info.provenance = manifest.provenance;
  Entity entity;
  pb::GrpcEvitaAssociatedDataValue ad;
  for (const auto& c : manifest.collections) {
    SnapshotCollectionStats stats;
    stats.entity_type = c.entity_type;
    stats.count = c.count;
    stats.stored_bytes = c.data.stored_bytes;
    stats.serialized_bytes = c.serialized_bytes;
    stats.file = c.data.file;
    auto stream = (*source)->OpenCollection(c.entity_type);
    if (!stream.ok()) return stream.status();
    double global = 0, localized = 0, prices = 0, ad_bytes = 0;
    std::map<std::string, double> references;
    for (const auto& [name, r] : (*source)->schema().entities.at(c.entity_type).references) {
      references[name] = 0;
    }
    auto add_ad = [&](const AssociatedDataValue& value) {
      codec::AssociatedDataValueToProto(value, &ad);
      ad_bytes += static_cast<double>(ad.ByteSizeLong());
    };
    while (true) {
      auto more = (*stream)->Next(&entity);
      if (!more.ok()) return more.status();
      if (!*more) break;
      global += static_cast<double>(entity.attributes.global.size());
      for (const auto& [tag, values] : entity.attributes.localized) {
        localized += static_cast<double>(values.size());
      }
      prices += static_cast<double>(entity.prices.size());
      for (const auto& r : entity.references) references[r.name] += 1;
      for (const auto& [name, value] : entity.associated_data.global) add_ad(value);
      for (const auto& [tag, values] : entity.associated_data.localized) {
        for (const auto& [name, value] : values) add_ad(value);
      }
    }
    const double n = c.count > 0 ? static_cast<double>(c.count) : 1.0;
    stats.global_attributes = global / n;
    stats.localized_attributes = localized / n;
    stats.prices = prices / n;
    stats.associated_data_bytes = ad_bytes / n;
    for (auto& [name, total] : references) stats.references[name] = total / n;
    info.collections.push_back(std::move(stats));
  }
  return info;
}

}  // namespace warmup

namespace warmup {

std::string SnapshotInfoToText(const SnapshotInfo& info) {
  auto fixed = [](double v, int places) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.*f", places, v);
    return std::string(buf);
  };
  auto pad = [](std::string s, size_t width, bool right) {
    if (s.size() >= width) return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
  };
  std::string out = "snapshot " + info.path + "\n  catalog " + info.catalog + ", format " +
                    std::to_string(info.format_version) + ", fingerprint " + info.fingerprint + "\n";
  for (const auto& [key, value] : info.provenance) out += "  " + key + " = " + value + "\n";
  out += "  " + std::to_string(info.collections.size()) + " collections, " +
         std::to_string(info.total_count()) + " entities, " +
         fixed(static_cast<double>(info.total_stored_bytes()) / 1e6, 1) +
         " MB stored; checksums verified\n\n";
  out += pad("collection", 22, false) + pad("entities", 10, true) + pad("MB", 10, true) +
         pad("attrs", 8, true) + pad("loc.attrs", 10, true) + pad("prices", 8, true) +
         pad("AD bytes", 10, true) + "  references/entity\n";
  for (const auto& c : info.collections) {
    std::string refs;
    for (const auto& [name, avg] : c.references) {
      refs += (refs.empty() ? "" : ", ") + name + " " + fixed(avg, 2);
    }
    out += pad(c.entity_type, 22, false) + pad(std::to_string(c.count), 10, true) +
           pad(fixed(static_cast<double>(c.stored_bytes) / 1e6, 2), 10, true) +
           pad(fixed(c.global_attributes, 1), 8, true) + pad(fixed(c.localized_attributes, 1), 10, true) +
           pad(fixed(c.prices, 1), 8, true) + pad(fixed(c.associated_data_bytes, 0), 10, true) + "  " + refs +
           "\n";
  }
  return out;
}

}  // namespace warmup
