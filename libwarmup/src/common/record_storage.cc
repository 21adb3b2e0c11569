// Record storage's names (warmup/record_storage.h).
#include "warmup/record_storage.h"

namespace warmup {

const char* RecordCompressionName(RecordCompression compression) {
  switch (compression) {
    case RecordCompression::kNone:
      return "none";
    case RecordCompression::kZstd:
      return "zstd";
    case RecordCompression::kDeflate:
      return "deflate";
  }
  return "?";
}

std::optional<RecordCompression> RecordCompressionNamed(std::string_view name) {
  for (RecordCompression c :
       {RecordCompression::kNone, RecordCompression::kZstd, RecordCompression::kDeflate}) {
    if (name == RecordCompressionName(c)) return c;
  }
  return std::nullopt;
}

const char* RecordWritesName(RecordWrites writes) {
  return writes == RecordWrites::kBackground ? "background" : "inline";
}

std::optional<RecordWrites> RecordWritesNamed(std::string_view name) {
  for (RecordWrites w : {RecordWrites::kInline, RecordWrites::kBackground}) {
    if (name == RecordWritesName(w)) return w;
  }
  return std::nullopt;
}

bool WrittenAsEvitaDb(const RecordStorage& storage) {
  return storage == RecordStorage{RecordCompression::kDeflate, RecordWrites::kInline};
}

}  // namespace warmup
