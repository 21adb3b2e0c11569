// Append-only record files: the engine's storage for entity bodies. Internal.
//
// A record is [u32 payload length][u32 CRC-32C of flags+payload][u8 flags][payload],
// little-endian; flag 1 = the payload is zstd-compressed, flag 2 = raw
// deflate at level 3 (evitaDB's storage.compress codec), each only when that
// is smaller, as evitaDB does per record. A reader stops at
// the first record that is torn or fails its checksum: that is where an
// interrupted append ended.
#ifndef WARMUP_SRC_ENGINE_RECORD_FILE_H_
#define WARMUP_SRC_ENGINE_RECORD_FILE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "engine/env.h"
#include "warmup/engine.h"
#include "warmup/status.h"

namespace warmup::engine {

class RecordWriter {
 public:
  // Appends to `path` (created if absent) from its current end.
  static StatusOr<std::unique_ptr<RecordWriter>> Open(Env* env, const std::string& path,
                                                      RecordCompression compression);
  ~RecordWriter();
  // Appends one record; returns its offset.
  StatusOr<uint64_t> Append(std::string_view payload);
  Status Sync() { return file_->Sync(); }
  Status Flush() { return file_->Flush(); }
  uint64_t size() const { return file_->Size(); }

 private:
  RecordWriter(std::unique_ptr<AppendFile> file, RecordCompression compression);
  // The compressed payload in compressed_, or false when it would not be smaller.
  bool Compress(std::string_view payload, size_t* size);
  std::unique_ptr<AppendFile> file_;
  RecordCompression compression_;
  void* zstd_context_ = nullptr;
  void* deflate_compressor_ = nullptr;  // libdeflate_compressor
  std::string frame_;
  std::string compressed_;
};

// Reads the record at `offset` of `file` into `payload` (decompressed).
// Errors: kDataLoss naming `name` and the offset for a torn or damaged record.
Status ReadRecord(const ReadFile& file, const std::string& name, uint64_t offset, std::string* payload);

// Calls `visit(offset, payload)` for every intact record from `from`; returns
// the offset just past the last intact record.
StatusOr<uint64_t> ScanRecords(const ReadFile& file, uint64_t from,
                               const std::function<Status(uint64_t, std::string_view)>& visit);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_RECORD_FILE_H_
