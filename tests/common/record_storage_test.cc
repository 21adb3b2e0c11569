// Record storage's names and evitaDB's way of writing records
// (warmup/record_storage.h), and the report's words for what a run knew of
// its target's records (warmup/run_config.h).
#include "warmup/record_storage.h"

#include <doctest/doctest.h>

#include <string>

#include "warmup/run_config.h"

namespace warmup {
namespace {

TEST_CASE("record storage: each name reads back as its value, and no other word does") {
  for (RecordCompression c :
       {RecordCompression::kNone, RecordCompression::kZstd, RecordCompression::kDeflate}) {
    CHECK(RecordCompressionNamed(RecordCompressionName(c)) == c);
  }
  CHECK(std::string(RecordCompressionName(RecordCompression::kDeflate)) == "deflate");
  CHECK_FALSE(RecordCompressionNamed("gzip").has_value());
  CHECK_FALSE(RecordCompressionNamed("").has_value());
  CHECK(RecordWritesNamed("inline") == RecordWrites::kInline);
  CHECK(RecordWritesNamed("background") == RecordWrites::kBackground);
  CHECK_FALSE(RecordWritesNamed("n/a").has_value());
}

TEST_CASE("record storage: only deflated records written by each upsert are written as evitaDB writes them") {
  // evitaDB's storage.compress deflates, and its WARM_UP upsert writes its own records.
  CHECK(WrittenAsEvitaDb({RecordCompression::kDeflate, RecordWrites::kInline}));
  CHECK_FALSE(WrittenAsEvitaDb({RecordCompression::kDeflate, RecordWrites::kBackground}));
  CHECK_FALSE(WrittenAsEvitaDb({RecordCompression::kZstd, RecordWrites::kInline}));
  CHECK_FALSE(WrittenAsEvitaDb({RecordCompression::kNone, RecordWrites::kInline}));
}

TEST_CASE("target records: the report's words for storage known, none stored, and unknown") {
  const TargetRecords known = RecordStorage{RecordCompression::kZstd, RecordWrites::kBackground};
  CHECK(CompressionWord(known) == "zstd");
  CHECK(RecordWritesWord(known) == "background");
  CHECK(CompressionWord(RecordsNotStored{}) == "n/a");
  CHECK(RecordWritesWord(RecordsNotStored{}) == "n/a");
  CHECK(CompressionWord(RecordsUnknown{}).empty());
  CHECK(RecordWritesWord(RecordsUnknown{}).empty());
  CHECK(std::holds_alternative<RecordsUnknown>(RunConfig{}.records));  // a config says nothing until told
}

}  // namespace
}  // namespace warmup
