#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "GrpcEntity.pb.h"
#include "codec/entity_convert.h"
#include "codec/schema_convert.h"
#include "codec/serialize.h"
#include "snapshot/byte_io.h"
#include "snapshot/manifest.h"
#include "warmup/snapshot.h"
#include "warmup/version.h"
#include "warmup_snapshot.pb.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using snapshot::FileWriter;
using snapshot::Manifest;
using snapshot::ManifestCollection;

// A file name for an entity type: its index keeps names unique whatever
// characters the type has; the type itself, made safe, keeps them readable.
std::string CollectionFile(size_t index, const std::string& type, SnapshotCompression compression) {
  std::string safe;
  for (char c : type) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '_';
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%03zu-", index);
  return "collections/" + std::string(prefix) + safe + ".entities" +
         (compression == SnapshotCompression::kZstd ? ".zst" : "");
}

class SnapshotWriterImpl : public SnapshotWriter {
 public:
  SnapshotWriterImpl(std::string temp_dir, std::string final_dir, const CatalogSchema& schema,
                     SnapshotWriteOptions options)
      : temp_dir_(std::move(temp_dir)),
        final_dir_(std::move(final_dir)),
        schema_(schema),
        options_(std::move(options)) {
    manifest_.catalog = schema.name;
    manifest_.created_by = "warmup " + Version();
    manifest_.provenance = options_.provenance;
    size_t index = 0;
    for (const auto& [type, entity_schema] : schema.entities) {
      ManifestCollection c;
      c.entity_type = type;
      c.compression = options_.compression;
      c.data.file = CollectionFile(index++, type, options_.compression);
      manifest_.collections.push_back(std::move(c));
    }
  }

  ~SnapshotWriterImpl() override {
    if (!finished_) {
      current_.reset();
      std::error_code ec;
      fs::remove_all(temp_dir_, ec);
    }
  }

  Status Append(const Entity& entity) override {
    if (finished_) return FailedPreconditionError("snapshot " + final_dir_ + " is already finished");
    if (current_index_ < 0 || manifest_.collections[current_index_].entity_type != entity.type) {
      if (Status s = StartCollection(entity.type); !s.ok()) return s;
    }
    ManifestCollection& c = manifest_.collections[current_index_];
    if (c.count > 0 && entity.primary_key <= last_pk_) {
      return InvalidArgumentError("entity " + EntityLabel(entity) +
                                  ": primary keys must ascend within a collection (" +
                                  std::to_string(last_pk_) + " came before)");
    }
    last_pk_ = entity.primary_key;
    codec::EntityToProto(entity, &message_);
    codec::SerializeDeterministic(message_, &record_);
    ++c.count;
    return current_->WriteRecord(record_);
  }

  void SetProvenance(const std::string& key, const std::string& value) override {
    manifest_.provenance[key] = value;
  }
  Status Finish() override {
    if (finished_) return FailedPreconditionError("snapshot " + final_dir_ + " is already finished");
    if (Status s = CloseCurrent(); !s.ok()) return s;
    for (size_t i = 0; i < manifest_.collections.size(); ++i) {
      if (!started_[manifest_.collections[i].entity_type]) {
        current_index_ = static_cast<int>(i);
        auto writer = FileWriter::Create(Path(manifest_.collections[i].data.file), ZstdLevel());
        if (!writer.ok()) return writer.status();
        current_ = std::move(writer).value();
        if (Status s = CloseCurrent(); !s.ok()) return s;
      }
    }
    snapshot::v1::SnapshotSchema schema_message;
    codec::CatalogSchemaToProto(schema_, schema_message.mutable_catalog());
    for (const auto& [type, entity_schema] : schema_.entities) {
      codec::EntitySchemaToProto(entity_schema, schema_message.add_entities());
    }
    std::string schema_bytes;
    codec::SerializeDeterministic(schema_message, &schema_bytes);
    auto crc = snapshot::WriteWholeFile(Path(snapshot::kSchemaFile), schema_bytes);
    if (!crc.ok()) return crc.status();
    manifest_.schema = {snapshot::kSchemaFile, static_cast<int64_t>(schema_bytes.size()), *crc};
    auto manifest_crc =
        snapshot::WriteWholeFile(Path(snapshot::kManifestFile), snapshot::ManifestToJson(manifest_));
    if (!manifest_crc.ok()) return manifest_crc.status();
    if (Status s = snapshot::SyncDirectory(Path("collections")); !s.ok()) return s;
    if (Status s = snapshot::SyncDirectory(temp_dir_); !s.ok()) return s;
    std::error_code ec;
    fs::rename(temp_dir_, final_dir_, ec);
    if (ec) {
      return Status(StatusCode::kUnavailable,
                    "cannot rename " + temp_dir_ + " to " + final_dir_ + ": " + ec.message());
    }
    finished_ = true;
    return snapshot::SyncDirectory(fs::path(final_dir_).parent_path().string());
  }

 private:
  std::string Path(const std::string& relative) const { return (fs::path(temp_dir_) / relative).string(); }
  int ZstdLevel() const {
    return options_.compression == SnapshotCompression::kZstd ? options_.zstd_level : 0;
  }

  Status StartCollection(const std::string& type) {
    if (Status s = CloseCurrent(); !s.ok()) return s;
    int index = -1;
    for (size_t i = 0; i < manifest_.collections.size(); ++i) {
      if (manifest_.collections[i].entity_type == type) index = static_cast<int>(i);
    }
    if (index < 0) {
      return InvalidArgumentError("entity type " + type + " is not in the schema of " + schema_.name);
    }
    if (started_[type]) {
      return InvalidArgumentError("entity type " + type +
                                  ": its collection was already written; entities of one "
                                  "collection must come together");
    }
    started_[type] = true;
    auto writer = FileWriter::Create(Path(manifest_.collections[index].data.file), ZstdLevel());
    if (!writer.ok()) return writer.status();
    current_ = std::move(writer).value();
    current_index_ = index;
    return OkStatus();
  }

  Status CloseCurrent() {
    if (!current_) return OkStatus();
    if (Status s = current_->Close(); !s.ok()) return s;
    ManifestCollection& c = manifest_.collections[current_index_];
    started_[c.entity_type] = true;
    c.data.stored_bytes = static_cast<int64_t>(current_->stored_bytes());
    c.data.crc32c = current_->crc();
    c.serialized_bytes = static_cast<int64_t>(current_->content_bytes());
    c.serialized_crc32c = current_->content_crc();
    current_.reset();
    return OkStatus();
  }

  std::string temp_dir_;
  std::string final_dir_;
  CatalogSchema schema_;
  SnapshotWriteOptions options_;
  Manifest manifest_;
  std::map<std::string, bool> started_;
  std::unique_ptr<FileWriter> current_;
  int current_index_ = -1;
  int32_t last_pk_ = 0;
  bool finished_ = false;
  io::evitadb::externalApi::grpc::generated::GrpcSealedEntity message_;
  std::string record_;
};

}  // namespace

StatusOr<std::unique_ptr<SnapshotWriter>> SnapshotWriter::Create(const std::string& parent_dir,
                                                                 const CatalogSchema& schema,
                                                                 const SnapshotWriteOptions& options) {
  if (!snapshot::IsSafeName(schema.name)) {
    return InvalidArgumentError("catalog name '" + schema.name +
                                "' cannot name a snapshot directory (letters, digits, '.', '_', '-' only)");
  }
  if (Status s = ValidateCatalogSchema(schema); !s.ok()) return s;
  const fs::path final_dir = fs::path(parent_dir) / schema.name;
  std::error_code ec;
  if (fs::exists(final_dir, ec)) {
    return AlreadyExistsError(final_dir.string() + " already exists; warmup does not overwrite snapshots");
  }
  fs::create_directories(parent_dir, ec);
  if (ec) return Status(StatusCode::kUnavailable, "cannot create " + parent_dir + ": " + ec.message());
  // A fresh directory of our own, renamed into place by Finish.
  auto fresh = snapshot::MakeFreshDirectory(parent_dir, "." + schema.name + ".partial-");
  if (!fresh.ok()) return fresh.status();
  const fs::path temp_dir = *fresh;
  fs::create_directories(temp_dir / "collections", ec);
  if (ec) return Status(StatusCode::kUnavailable, "cannot create " + temp_dir.string() + ": " + ec.message());
  return std::unique_ptr<SnapshotWriter>(
      new SnapshotWriterImpl(temp_dir.string(), final_dir.string(), schema, options));
}

StatusOr<std::string> WriteSnapshot(CatalogSource& source, const std::string& parent_dir,
                                    const SnapshotWriteOptions& options) {
  auto writer = SnapshotWriter::Create(parent_dir, source.schema(), options);
  if (!writer.ok()) return writer.status();
  Entity entity;
  for (const CollectionInfo& collection : source.collections()) {
    const auto start = std::chrono::steady_clock::now();
    auto stream = source.OpenCollection(collection.entity_type);
    if (!stream.ok()) return stream.status();
    int64_t count = 0;
    while (true) {
      auto more = (*stream)->Next(&entity);
      if (!more.ok()) return more.status();
      if (!*more) break;
      if (Status s = (*writer)->Append(entity); !s.ok()) return s;
      ++count;
    }
    if (options.on_collection_written) {
      options.on_collection_written(
          collection.entity_type, count,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
  // What the source read and could not deliver, so that a load from this
  // snapshot says what it lacks (the snapshot source reads it back).
  for (const auto& [what, count] : source.OmittedValues()) {
    (*writer)->SetProvenance(std::string(snapshot::kOmittedProvenancePrefix) + what, std::to_string(count));
  }
  if (Status s = (*writer)->Finish(); !s.ok()) return s;
  return (fs::path(parent_dir) / source.schema().name).string();
}

}  // namespace warmup
