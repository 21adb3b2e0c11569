// How a target stores an entity's records: compressed or not, and written by
// each upsert or by a second thread. The names reports and command lines
// spell them with, and whether a run wrote them as evitaDB does.
#ifndef WARMUP_RECORD_STORAGE_H_
#define WARMUP_RECORD_STORAGE_H_

#include <optional>
#include <string_view>

namespace warmup {

// How entity records are compressed (each record alone, and only when that
// makes it smaller): evitaDB's storage.compress deflates at level 3.
enum class RecordCompression : int { kNone = 0, kZstd = 1, kDeflate = 2 };
// "none", "zstd", "deflate": a report's names, and the names a warmup serve's
// --compress takes.
const char* RecordCompressionName(RecordCompression compression);
// The compression `name` names (RecordCompressionName's inverse); nullopt for
// any other word.
std::optional<RecordCompression> RecordCompressionNamed(std::string_view name);

// Who writes a target's records in WARM_UP: each upsert, as evitaDB's does,
// or a second thread (EngineOptions::background_records: upsert times then
// leave that work out, and goLive waits for it).
enum class RecordWrites { kInline, kBackground };
// "inline", "background": a report's names.
const char* RecordWritesName(RecordWrites writes);
// RecordWritesName's inverse; nullopt for any other word.
std::optional<RecordWrites> RecordWritesNamed(std::string_view name);

// How a target stores its records.
struct RecordStorage {
  RecordCompression compression = RecordCompression::kNone;
  RecordWrites writes = RecordWrites::kBackground;
  friend bool operator==(const RecordStorage&, const RecordStorage&) = default;
};
// Whether `storage` is how evitaDB's WARM_UP upsert writes records: deflated
// (RecordCompression::kDeflate) by each upsert.
bool WrittenAsEvitaDb(const RecordStorage& storage);

}  // namespace warmup

#endif  // WARMUP_RECORD_STORAGE_H_
