// The generator as a CatalogSource, and GenerateSnapshot on top of it.
#include <cmath>
#include <cstdio>

#include "generator/profile.h"
#include "warmup/generator.h"

namespace warmup {
namespace {

// "1", "0.01", "2.5": how a scale reads in manifests and reports.
std::string FormatScale(double scale) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", scale);
  return buf;
}

class GeneratorStream : public EntityStream {
 public:
  GeneratorStream(const generator::Profile& profile, std::string type, int64_t count)
      : profile_(profile), type_(std::move(type)), count_(count) {}
  StatusOr<bool> Next(Entity* entity) override {
    if (next_pk_ > count_) return false;
    profile_.MakeEntity(type_, static_cast<int32_t>(next_pk_++), entity);
    // What evitaDB holds once the entity is stored: UNKNOWN without prices.
    entity->price_inner_record_handling = StoredPriceInnerRecordHandling(*entity);
    return true;
  }

 private:
  const generator::Profile& profile_;
  std::string type_;
  int64_t count_;
  int64_t next_pk_ = 1;
};

class GeneratorSource : public CatalogSource {
 public:
  GeneratorSource(GeneratorOptions options, std::unique_ptr<generator::Profile> profile)
      : options_(std::move(options)), profile_(std::move(profile)) {
    for (const auto& plan : profile_->collections()) {
      collections_.push_back({plan.entity_type, plan.count, 0});
    }
  }
  const CatalogSchema& schema() const override { return profile_->schema(); }
  const std::vector<CollectionInfo>& collections() const override { return collections_; }
  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& entity_type) override {
    const CollectionInfo* info = FindCollection(*this, entity_type);
    if (info == nullptr) return NotFoundError("generated catalog has no collection " + entity_type);
    return std::unique_ptr<EntityStream>(new GeneratorStream(*profile_, entity_type, info->expected_count));
  }
  std::string Describe() const override {
    return "generator profile " + options_.profile + " scale " + FormatScale(options_.scale) + " seed " +
           std::to_string(options_.seed);
  }
  std::string Fingerprint() const override {
    return "gen-" + options_.profile + "-" + FormatScale(options_.scale) + "-" +
           std::to_string(options_.seed);
  }
  std::map<std::string, std::string> Provenance() const override {
    return {{"generator.profile", options_.profile},
            {"generator.scale", FormatScale(options_.scale)},
            {"generator.seed", std::to_string(options_.seed)}};
  }

 private:
  GeneratorOptions options_;
  std::unique_ptr<generator::Profile> profile_;
  std::vector<CollectionInfo> collections_;
};

}  // namespace

std::vector<std::string> GeneratorProfiles() { return {"senesi", "senesi-production", "tiny"}; }

StatusOr<std::unique_ptr<CatalogSource>> OpenGeneratorSource(const GeneratorOptions& options) {
  if (!std::isfinite(options.scale) || options.scale <= 0) {
    return InvalidArgumentError("scale must be a positive number, got " + FormatScale(options.scale));
  }
  std::unique_ptr<generator::Profile> profile;
  if (options.profile == "senesi") {
    profile = generator::MakeSenesiProfile(options, generator::SenesiShape::kSenesi);
  } else if (options.profile == "senesi-production") {
    profile = generator::MakeSenesiProfile(options, generator::SenesiShape::kProduction);
  } else if (options.profile == "tiny") {
    profile = generator::MakeTinyProfile(options);
  } else {
    std::string known;
    for (const std::string& name : GeneratorProfiles()) known += (known.empty() ? "" : ", ") + name;
    return InvalidArgumentError("unknown generator profile '" + options.profile + "' (known: " + known + ")");
  }
  return std::unique_ptr<CatalogSource>(new GeneratorSource(options, std::move(profile)));
}

StatusOr<std::string> GenerateSnapshot(const GeneratorOptions& options, const std::string& parent_dir,
                                       SnapshotWriteOptions write_options) {
  auto source = OpenGeneratorSource(options);
  if (!source.ok()) return source.status();
  for (const auto& [key, value] : (*source)->Provenance()) write_options.provenance[key] = value;
  return WriteSnapshot(**source, parent_dir, write_options);
}

}  // namespace warmup
