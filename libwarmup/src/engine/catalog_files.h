// The files of one catalog directory besides its records: the header that
// says what state the catalog is in, the schema, the offsets files and the
// index snapshots goLive writes. Internal; layout in docs/engine.md.
#ifndef WARMUP_SRC_ENGINE_CATALOG_FILES_H_
#define WARMUP_SRC_ENGINE_CATALOG_FILES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "engine/env.h"
#include "engine/index_io.h"
#include "warmup/engine.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::engine {

inline constexpr const char* kHeaderFile = "catalog.header";
inline constexpr const char* kSchemaFile = "schema.pb";
// The catalog-wide indexes (globally unique values, reflected references).
inline constexpr const char* kCatalogIndexFile = "catalog.index";

// catalog.header: a magic line with the format version, the name, the state,
// and a CRC-32C line over those three.
std::string HeaderText(const std::string& name, CatalogState state);
// The state the header records, or kInvalidArgument saying why `text` is not
// the valid header of catalog `expected_name` (a catalog of an older format
// is not valid: its index files are laid out differently).
StatusOr<CatalogState> ParseHeader(const std::string& text, const std::string& expected_name);

// collections/NNN.offsets: the record file's valid end and primary key ->
// record offset. Decoding fails with kDataLoss naming `name` when the size or
// the checksum does not match.
std::string EncodeOffsets(uint64_t valid_end, const std::map<int32_t, uint64_t>& offsets);
Status DecodeOffsets(const std::string& data, const std::string& name, uint64_t* valid_end,
                     std::map<int32_t, uint64_t>* offsets);

// schema.pb: the same message as a snapshot's schema.pb.
std::string SerializeSchema(const CatalogSchema& schema);
StatusOr<CatalogSchema> ParseSchema(const std::string& data, const std::string& name);

// Streams an index snapshot to `path` through `fill`: a temporary file,
// fsync, rename. On failure `path` is unchanged.
Status WriteIndexFile(Env* env, const std::string& path, const std::function<void(IndexWriter&)>& fill);
// Reads the index snapshot at `path` through `read`, then checks that the
// checksum matched and every byte was read (kDataLoss naming `path`).
Status ReadIndexFile(Env* env, const std::string& path, const std::function<void(IndexReader&)>& read);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_CATALOG_FILES_H_
