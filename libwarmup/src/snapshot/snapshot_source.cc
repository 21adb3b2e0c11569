#include "snapshot/snapshot_source.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <string>
#include <vector>

#include "GrpcEntity.pb.h"
#include "base/crc32c.h"
#include "codec/entity_convert.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"
#include "snapshot/byte_io.h"
#include "snapshot/manifest.h"
#include "snapshot/snapshot_files.h"
#include "warmup/snapshot.h"
#include "warmup_snapshot.pb.h"

namespace warmup::snapshot {
namespace {

std::string Hex(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof(buf), "%08x", v);
  return buf;
}

// Large enough for a fully fetched product (~8 KB on the wire, a few times that parsed).
constexpr size_t kArenaBlockBytes = 256 * 1024;

google::protobuf::ArenaOptions ArenaOptionsFor(std::vector<char>& block) {
  google::protobuf::ArenaOptions options;
  options.initial_block = block.data();
  options.initial_block_size = block.size();
  return options;
}

// DATA_LOSS naming `name` unless `bytes` and `crc` are what the manifest
// says `collection`'s stored file holds. `when` says at which check.
Status CheckStored(const ManifestCollection& collection, const std::string& name, uint64_t bytes,
                   uint32_t crc, const std::string& when) {
  if (bytes != static_cast<uint64_t>(collection.data.stored_bytes)) {
    return DataLossError(name + ": " + std::to_string(bytes) + " bytes, the manifest says " +
                         std::to_string(collection.data.stored_bytes) + ": the file is damaged (" + when +
                         ")");
  }
  if (crc != collection.data.crc32c) {
    return DataLossError(name + ": checksum " + Hex(crc) + " does not match the manifest's " +
                         Hex(collection.data.crc32c) + ": the file is damaged (" + when + ")");
  }
  return OkStatus();
}

// Reads `collection`'s stored file to its end, checking its size and
// checksum: done when the source is opened, so that a damaged file is
// refused before any of its records is interpreted (and before a copy has
// written anything anywhere).
Status VerifyStoredFile(SnapshotFiles& files, const ManifestCollection& collection) {
  auto raw = files.Open(collection.data.file);
  if (!raw.ok()) return raw.status();
  ChecksummingReader reader(std::move(raw).value());
  std::vector<char> buffer(1 << 20);
  while (true) {
    auto n = reader.Read(buffer.data(), buffer.size());
    if (!n.ok()) return n.status();
    if (*n == 0) break;
  }
  return CheckStored(collection, files.Name(collection.data.file), reader.bytes(), reader.crc(),
                     "found when the snapshot was opened, before any of its entities was read");
}

class SnapshotEntityStream : public EntityStream {
 public:
  SnapshotEntityStream(const ManifestCollection& collection, std::string name,
                       std::unique_ptr<ByteReader> raw)
      : collection_(collection), name_(std::move(name)), stored_(std::move(raw)) {
    ByteReader* content = &stored_;
    if (collection.compression == SnapshotCompression::kZstd) {
      zstd_ = MakeZstdReader(&stored_, name_);
      content_ = std::make_unique<ChecksummingReader>(std::move(zstd_));
      content = content_.get();
    }
    records_ = std::make_unique<RecordReader>(content, name_);
  }

  StatusOr<bool> Next(Entity* entity) override {
    std::string_view record;
    uint64_t offset = 0;
    auto more = records_->Next(&record, &offset);
    if (!more.ok()) return more.status();
    if (!*more) {
      if (Status s = VerifyEnd(); !s.ok()) return s;
      return false;
    }
    // Parsing into an arena that is reset per entity replaces a few hundred
    // small allocations per product with pointer bumps in one reused block.
    arena_.Reset();
    auto* message = google::protobuf::Arena::CreateMessage<pb::GrpcSealedEntity>(&arena_);
    if (!message->ParseFromArray(record.data(), static_cast<int>(record.size()))) {
      return DataLossError(name_ + ": offset " + std::to_string(offset) +
                           ": entity record does not parse as GrpcSealedEntity");
    }
    auto parsed = codec::EntityFromProto(*message);
    if (!parsed.ok()) return parsed.status().WithContext(name_ + ": offset " + std::to_string(offset));
    *entity = std::move(parsed).value();
    if (entity->type != collection_.entity_type) {
      return DataLossError(name_ + ": offset " + std::to_string(offset) + ": entity " + EntityLabel(*entity) +
                           " in the file of " + collection_.entity_type);
    }
    if (count_ > 0 && entity->primary_key <= last_pk_) {
      return DataLossError(name_ + ": offset " + std::to_string(offset) + ": entity " + EntityLabel(*entity) +
                           " is out of primary-key order (after " + std::to_string(last_pk_) + ")");
    }
    last_pk_ = entity->primary_key;
    ++count_;
    return true;
  }

 private:
  // The same checks again at the end of the stream: the file may have
  // changed since the source was opened.
  Status VerifyEnd() {
    if (Status s =
            CheckStored(collection_, name_, stored_.bytes(), stored_.crc(), "changed while it was read");
        !s.ok()) {
      return s;
    }
    if (content_ && content_->crc() != collection_.serialized_crc32c) {
      return DataLossError(name_ + ": decompressed checksum does not match the manifest");
    }
    if (count_ != collection_.count) {
      return DataLossError(name_ + ": holds " + std::to_string(count_) + " entities, the manifest says " +
                           std::to_string(collection_.count));
    }
    return OkStatus();
  }

  const ManifestCollection& collection_;
  std::string name_;
  ChecksummingReader stored_;
  std::unique_ptr<ByteReader> zstd_;
  std::unique_ptr<ChecksummingReader> content_;
  std::unique_ptr<RecordReader> records_;
  std::vector<char> arena_block_ = std::vector<char>(kArenaBlockBytes);
  google::protobuf::Arena arena_{ArenaOptionsFor(arena_block_)};
  int64_t count_ = 0;
  int32_t last_pk_ = 0;
};

class SnapshotSourceImpl : public SnapshotSource {
 public:
  SnapshotSourceImpl(std::unique_ptr<SnapshotFiles> files, Manifest manifest, CatalogSchema schema)
      : files_(std::move(files)), manifest_(std::move(manifest)), schema_(std::move(schema)) {
    for (const auto& c : manifest_.collections) {
      collections_.push_back({c.entity_type, c.count, c.data.stored_bytes});
    }
  }
  const CatalogSchema& schema() const override { return schema_; }
  const std::vector<CollectionInfo>& collections() const override { return collections_; }
  const Manifest& manifest() const override { return manifest_; }

  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& entity_type) override {
    for (const auto& c : manifest_.collections) {
      if (c.entity_type != entity_type) continue;
      auto raw = files_->Open(c.data.file);
      if (!raw.ok()) return raw.status();
      return std::unique_ptr<EntityStream>(
          new SnapshotEntityStream(c, files_->Name(c.data.file), std::move(raw).value()));
    }
    std::string known;
    for (const auto& c : manifest_.collections) known += (known.empty() ? "" : ", ") + c.entity_type;
    return NotFoundError("snapshot " + files_->root() + " has no collection " + entity_type +
                         " (it has: " + known + ")");
  }
  std::string Describe() const override {
    return "snapshot " + files_->root() + " (catalog " + manifest_.catalog + ", format " +
           std::to_string(manifest_.format_version) + ")";
  }
  std::string Fingerprint() const override { return ManifestFingerprint(manifest_); }
  std::map<std::string, std::string> Provenance() const override { return manifest_.provenance; }
  // What the export that made this snapshot left out: a copy from it lacks it too.
  std::map<std::string, int64_t> OmittedValues() const override {
    std::map<std::string, int64_t> omitted;
    for (const auto& [key, value] : manifest_.provenance) {
      if (!key.starts_with(kOmittedProvenancePrefix)) continue;
      int64_t count = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
      if (error == std::errc() && end == value.data() + value.size()) {
        omitted[key.substr(kOmittedProvenancePrefix.size())] = count;
      }
    }
    return omitted;
  }

 private:
  std::unique_ptr<SnapshotFiles> files_;
  Manifest manifest_;
  CatalogSchema schema_;
  std::vector<CollectionInfo> collections_;
};

StatusOr<std::string> ReadFileOf(SnapshotFiles& files, const std::string& relative) {
  auto reader = files.Open(relative);
  if (!reader.ok()) return reader.status();
  return ReadAll(**reader);
}

}  // namespace

StatusOr<std::unique_ptr<SnapshotSource>> SnapshotSource::Open(const std::string& path) {
  auto files = OpenSnapshotFiles(path);
  if (!files.ok()) return files.status();
  auto manifest_text = ReadFileOf(**files, kManifestFile);
  if (!manifest_text.ok()) return manifest_text.status();
  auto manifest = ParseManifest(*manifest_text, (*files)->Name(kManifestFile));
  if (!manifest.ok()) return manifest.status();
  const std::string schema_name = (*files)->Name(manifest->schema.file);
  auto schema_bytes = ReadFileOf(**files, manifest->schema.file);
  if (!schema_bytes.ok()) return schema_bytes.status();
  if (static_cast<int64_t>(schema_bytes->size()) != manifest->schema.stored_bytes ||
      Crc32c(schema_bytes->data(), schema_bytes->size()) != manifest->schema.crc32c) {
    return DataLossError(schema_name + ": size or checksum does not match the manifest: the file is damaged");
  }
  warmup::snapshot::v1::SnapshotSchema message;
  if (!message.ParseFromString(*schema_bytes)) return DataLossError(schema_name + ": does not parse");
  std::vector<io::evitadb::externalApi::grpc::generated::GrpcEntitySchema> entities(
      message.entities().begin(), message.entities().end());
  auto schema = codec::CatalogSchemaFromProto(message.catalog(), entities);
  if (!schema.ok()) return schema.status().WithContext(schema_name);
  if (schema->name != manifest->catalog) {
    return InvalidArgumentError(schema_name + ": catalog " + schema->name + ", the manifest says " +
                                manifest->catalog);
  }
  std::vector<std::string> manifest_types;
  for (const auto& c : manifest->collections) manifest_types.push_back(c.entity_type);
  std::vector<std::string> schema_types;
  for (const auto& [type, e] : schema->entities) schema_types.push_back(type);
  if (manifest_types != schema_types) {
    return InvalidArgumentError((*files)->Name(kManifestFile) +
                                ": its collections differ from the schema's entity types");
  }
  for (const auto& c : manifest->collections) {
    if (Status s = VerifyStoredFile(**files, c); !s.ok()) return s;
  }
  return std::unique_ptr<SnapshotSource>(new SnapshotSourceImpl(
      std::move(files).value(), std::move(manifest).value(), std::move(schema).value()));
}

}  // namespace warmup::snapshot

namespace warmup {

StatusOr<std::unique_ptr<CatalogSource>> OpenSnapshotSource(const std::string& path) {
  auto source = snapshot::SnapshotSource::Open(path);
  if (!source.ok()) return source.status();
  return std::unique_ptr<CatalogSource>(std::move(source).value());
}

StatusOr<std::string> FindSnapshot(const std::string& parent, const std::string& catalog,
                                   const SpecNames& names) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (catalog.empty() && fs::is_regular_file(parent, ec)) return parent;  // an export zip
  if (!fs::is_directory(parent, ec)) return NotFoundError(parent + ": no such directory");
  if (fs::exists(fs::path(parent) / "manifest.json", ec)) {
    const fs::path self = fs::absolute(parent, ec).lexically_normal();
    const fs::path dir = self.filename().empty() ? self.parent_path() : self;
    return InvalidArgumentError(
        parent + " is a snapshot itself; pass its parent directory: " + names.source_dir + " " +
        dir.parent_path().string() + " with " + names.catalog + " " + dir.filename().string());
  }
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    // An entry that cannot be looked into (another user's directory) is
    // simply not a snapshot: its error is its own, not the listing's.
    std::error_code entry_ec;
    if (fs::exists(entry.path() / "manifest.json", entry_ec)) {
      found.push_back(entry.path().filename().string());
    }
  }
  if (ec) return UnavailableError("cannot list " + parent + ": " + ec.message());
  std::sort(found.begin(), found.end());
  std::string listed;
  for (const auto& name : found) listed += (listed.empty() ? "" : ", ") + name;
  if (!catalog.empty()) {
    if (std::find(found.begin(), found.end(), catalog) != found.end())
      return (fs::path(parent) / catalog).string();
    return NotFoundError("no snapshot " + catalog + " in " + parent +
                         (found.empty() ? " (it holds none)" : "; it holds: " + listed));
  }
  if (found.size() == 1) return (fs::path(parent) / found.front()).string();
  if (found.empty()) return InvalidArgumentError(parent + " holds no snapshot (no */manifest.json in it)");
  return InvalidArgumentError(parent + " holds " + std::to_string(found.size()) + " snapshots (" + listed +
                              "): choose one with " + names.catalog);
}

}  // namespace warmup
