#include "engine/catalog_files.h"

#include <cstdio>
#include <vector>

#include "base/crc32c.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"
#include "codec/serialize.h"
#include "warmup_snapshot.pb.h"

namespace warmup::engine {
namespace {

// Version 2: reflected references moved from the collections' index files
// to the catalog's own. Version 4: the index snapshots hold no facets in
// filtering-only reduced indexes and no sort postings in type indexes
// (evitaDB's facet gate and ReferencedTypeEntityIndex); a reopened version 3
// catalog would carry them. Version 5: a collection's unique values are
// saved once, in its global indexes (evitaDB's UniqueIndex), not also in a
// collection-wide map. Version 6: a unique value that evitaDB folds into its
// filter index (non-localized, or unique per locale) is held by its filter
// posting alone; a version 5 index would keep a second owner map for it.
constexpr const char* kFormat = "warmup-catalog 6";

std::string Hex32(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof(buf), "%08x", v);
  return buf;
}

}  // namespace

std::string HeaderText(const std::string& name, CatalogState state) {
  std::string body = std::string(kFormat) + "\nname " + name + "\nstate " +
                     (state == CatalogState::kAlive ? "ALIVE" : "WARMING_UP") + "\n";
  return body + "crc32c " + Hex32(Crc32c(body.data(), body.size())) + "\n";
}

StatusOr<CatalogState> ParseHeader(const std::string& text, const std::string& expected_name) {
  const size_t crc_at = text.rfind("crc32c ");
  if (crc_at == std::string::npos) return InvalidArgumentError("no checksum");
  const std::string body = text.substr(0, crc_at);
  if (text.substr(crc_at) != "crc32c " + Hex32(Crc32c(body.data(), body.size())) + "\n") {
    return InvalidArgumentError("checksum does not match");
  }
  if (body.rfind("warmup-catalog ", 0) != 0) return InvalidArgumentError("not a catalog header");
  if (body.rfind(std::string(kFormat) + "\n", 0) != 0) {
    return InvalidArgumentError("written as " + body.substr(0, body.find('\n')) + "; this build reads " +
                                kFormat);
  }
  if (body.find("\nname " + expected_name + "\n") == std::string::npos) {
    return InvalidArgumentError("names another catalog");
  }
  if (body.find("\nstate ALIVE\n") != std::string::npos) return CatalogState::kAlive;
  if (body.find("\nstate WARMING_UP\n") != std::string::npos) return CatalogState::kWarmingUp;
  return InvalidArgumentError("unknown state");
}

// Layout: valid_end, count, (pk, offset)*, crc32c; little-endian.
std::string EncodeOffsets(uint64_t valid_end, const std::map<int32_t, uint64_t>& offsets) {
  std::string out;
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  };
  put(valid_end, 8);
  put(offsets.size(), 8);
  for (const auto& [pk, offset] : offsets) {
    put(static_cast<uint32_t>(pk), 4);
    put(offset, 8);
  }
  put(Crc32c(out.data(), out.size()), 4);
  return out;
}

Status DecodeOffsets(const std::string& data, const std::string& name, uint64_t* valid_end,
                     std::map<int32_t, uint64_t>* offsets) {
  auto get = [&](size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(data[at + i])) << (8 * i);
    return v;
  };
  if (data.size() < 20) return DataLossError(name + ": too short");
  const uint64_t count = get(8, 8);
  if (data.size() != 20 + count * 12) return DataLossError(name + ": size does not match its count");
  if (get(data.size() - 4, 4) != Crc32c(data.data(), data.size() - 4)) {
    return DataLossError(name + ": bad checksum");
  }
  *valid_end = get(0, 8);
  for (uint64_t i = 0; i < count; ++i) {
    (*offsets)[static_cast<int32_t>(get(16 + i * 12, 4))] = get(20 + i * 12, 8);
  }
  return OkStatus();
}

std::string SerializeSchema(const CatalogSchema& schema) {
  snapshot::v1::SnapshotSchema message;
  codec::CatalogSchemaToProto(schema, message.mutable_catalog());
  for (const auto& [type, e] : schema.entities) codec::EntitySchemaToProto(e, message.add_entities());
  std::string out;
  codec::SerializeDeterministic(message, &out);
  return out;
}

StatusOr<CatalogSchema> ParseSchema(const std::string& data, const std::string& name) {
  snapshot::v1::SnapshotSchema message;
  if (!message.ParseFromString(data)) return DataLossError(name + ": does not parse");
  std::vector<pb::GrpcEntitySchema> entities(message.entities().begin(), message.entities().end());
  return codec::CatalogSchemaFromProto(message.catalog(), entities);
}

Status WriteIndexFile(Env* env, const std::string& path, const std::function<void(IndexWriter&)>& fill) {
  const std::string temp = path + ".tmp";
  if (Status s = env->RemoveAll(temp); !s.ok()) return s;
  auto file = env->OpenAppend(temp);
  if (!file.ok()) return file.status();
  IndexWriter out(file->get());
  fill(out);
  if (Status s = out.Finish(); !s.ok()) return s;
  if (Status s = (*file)->Sync(); !s.ok()) return s;
  if (Status s = (*file)->Close(); !s.ok()) return s;
  return env->Rename(temp, path);
}

Status ReadIndexFile(Env* env, const std::string& path, const std::function<void(IndexReader&)>& read) {
  auto data = env->ReadWholeFile(path);
  if (!data.ok()) return data.status();
  IndexReader in(std::move(data).value(), path);
  read(in);
  return in.Done();
}

}  // namespace warmup::engine
