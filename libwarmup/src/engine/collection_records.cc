// A collection's record store: the append-only file of storage-part records
// (evitaDB's entity storage parts; docs/engine.md), read back per entity and
// replayed when a catalog is reopened.
#include <string>

#include "engine/collection.h"
#include "engine/storage_parts.h"

namespace warmup::engine {
namespace {

// A removal record: its kind byte and the primary key.
constexpr char kRemovalMark = static_cast<char>(PartKind::kRemoval);

}  // namespace

Status Collection::OpenForAppend() {
  auto writer = RecordWriter::Open(env_, records_path_, compression_);
  if (!writer.ok()) return writer.status();
  writer_ = std::move(writer).value();
  return OkStatus();
}

Status Collection::ReadEntity(uint64_t offset, Entity* entity, std::vector<PartLocation>* parts,
                              std::vector<std::string>* records) const {
  if (offset == kPendingOffset) {  // a caller that did not Settle: a bug, not the data's fault
    return InternalError(records_path_ + ": an entity's records are read before they were written");
  }
  if (writer_) {
    if (Status s = writer_->Flush(); !s.ok()) return s;
  }
  if (!reader_ || offset >= reader_size_) {
    auto reader = env_->OpenRead(records_path_);
    if (!reader.ok()) return reader.status();
    reader_ = std::move(reader).value();
    reader_size_ = reader_->Size();
  }
  return ReadStored(*reader_, offset, entity, parts, records);
}

Status Collection::ReadStored(const ReadFile& file, uint64_t offset, Entity* entity,
                              std::vector<PartLocation>* parts, std::vector<std::string>* records) const {
  const std::string where = records_path_ + ": offset " + std::to_string(offset);
  std::string payload;
  if (Status s = ReadRecord(file, records_path_, offset, &payload); !s.ok()) return s;
  std::vector<PartLocation> locations;
  if (Status s = DecodeBody(payload, where, entity, &locations); !s.ok()) return s;
  if (records != nullptr) records->clear();
  for (const PartLocation& part : locations) {
    if (Status s = ReadRecord(file, records_path_, part.offset, &payload); !s.ok()) return s;
    if (Status s = MergePart(payload, records_path_ + ": offset " + std::to_string(part.offset), entity);
        !s.ok()) {
      return s;
    }
    if (records != nullptr) records->push_back(payload);
  }
  if (parts != nullptr) *parts = std::move(locations);
  return OkStatus();
}

Status Collection::Replay(uint64_t from, const std::function<Status(Entity&&, uint64_t)>& visit,
                          const std::function<Status(int32_t)>& removed) {
  if (env_->Exists(records_path_)) {
    auto reader = env_->OpenRead(records_path_);
    if (!reader.ok()) return reader.status();
    auto end = ScanRecords(**reader, from, [&](uint64_t offset, std::string_view payload) -> Status {
      const std::string where = records_path_ + ": offset " + std::to_string(offset);
      if (!payload.empty() && payload[0] == kRemovalMark) {
        if (payload.size() != 5) return DataLossError(where + ": removal record of the wrong size");
        uint32_t pk = 0;
        for (int i = 0; i < 4; ++i) {
          pk |= static_cast<uint32_t>(static_cast<uint8_t>(payload[1 + i])) << (8 * i);
        }
        return removed(static_cast<int32_t>(pk));
      }
      // Parts are read through the body that names them; a part whose body
      // never made it (a torn tail) belongs to no entity.
      if (payload.empty() || static_cast<PartKind>(payload[0]) != PartKind::kBody) return OkStatus();
      Entity entity;
      if (Status s = ReadStored(**reader, offset, &entity, nullptr, nullptr); !s.ok()) return s;
      return visit(std::move(entity), offset);
    });
    if (!end.ok()) return end.status();
  }
  return OpenForAppend();
}

Status Collection::AppendRecord(std::string_view payload, bool durable, uint64_t* offset) {
  auto appended = writer_->Append(payload);
  if (!appended.ok()) return appended.status();
  if (durable) {
    if (Status s = writer_->Sync(); !s.ok()) return s;
  }
  *offset = *appended;
  return OkStatus();
}

Status Collection::AppendRemoval(int32_t pk, bool durable) {
  std::string record(1, kRemovalMark);
  for (int i = 0; i < 4; ++i) record.push_back(static_cast<char>(static_cast<uint32_t>(pk) >> (8 * i)));
  uint64_t offset = 0;
  return AppendRecord(record, durable, &offset);
}

}  // namespace warmup::engine
