// How the engine stores an entity's records: compressed or not, and written
// by each upsert or by a second thread. Names for both, as reports and
// command lines spell them, and whether a run wrote them as evitaDB does.
#ifndef WARMUP_RECORD_STORAGE_H_
#define WARMUP_RECORD_STORAGE_H_

#include <string_view>

namespace warmup {

// How entity records are compressed (each record alone, and only when that
// makes it smaller): evitaDB's storage.compress deflates at level 3.
enum class RecordCompression : int { kNone = 0, kZstd = 1, kDeflate = 2 };
// "none", "zstd", "deflate": a report's names, and the names a warmup serve's
// --compress takes.
const char* RecordCompressionName(RecordCompression compression);

// "background" or "inline": a report's name for EngineOptions::background_records.
const char* RecordWritesName(bool background_records);
// Whether a report's config.compression and config.record_writes say its
// records were written as evitaDB's WARM_UP upsert writes them: deflated
// (RecordCompression::kDeflate) by each upsert ("inline"). A report that says
// neither (a server warmup did not start keeps its own) is not taken to be.
bool RecordsWrittenAsEvitaDb(std::string_view compression, std::string_view record_writes);

}  // namespace warmup

#endif  // WARMUP_RECORD_STORAGE_H_
