// RunConfig: what a run was asked to do, as its report records it, so that
// runs that measured different things are never compared as if they had
// not (compare.h says which fields must agree).
#ifndef WARMUP_RUN_CONFIG_H_
#define WARMUP_RUN_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "warmup/storage_info.h"

namespace warmup {

// What is checked after goLive.
enum class VerifyMode {
  kNone,     // nothing (the report says it was declined)
  kCounts,   // every collection's count against the source's
  kContent,  // the counts, then every entity read back and its digest compared with the source's
};
const char* VerifyModeName(VerifyMode mode);  // "none", "counts", "content"

// What a run was asked to do, recorded whole in its report, so that runs
// that measured different things are never compared as if they had not
// (compare.h says which fields must agree).
struct RunConfig {
  // The command line as given (the tool, its command, its arguments); empty
  // for a run made through the library.
  std::vector<std::string> command_line;
  std::string target_kind;  // "embedded", "remote", "null"; empty = not said
  // How the target stores records (storage.compress): "none", "zstd",
  // "deflate", or empty when not known (a remote server warmup did not start).
  std::string compression;
  // Who writes the target's records in WARM_UP: "background" (a second
  // thread, EngineOptions::background_records: upsert times leave that work
  // out), "inline" (each upsert, as evitaDB's does), "n/a" (a null target),
  // or empty when not known (a remote server warmup did not start).
  std::string record_writes;
  int64_t max_per_collection = 0;        // 0 = all
  std::vector<std::string> collections;  // the subset asked for; empty = all
  // Whether the source was read ahead on a second thread (CopyOptions::
  // read_ahead): then the load's wall-clock overlaps decoding and its source
  // read is waiting, not decoding. A report without the field read inline.
  bool source_read_ahead = false;
  // What the source says of the dataset (a generated snapshot: the profile,
  // scale and seed; an export: where it came from).
  std::map<std::string, std::string> dataset_provenance;
  // A server the run started: its warmup binary or its command, the serve
  // flags it was given, its heap ({xmx}).
  std::string server_binary;
  std::string server_command;
  std::vector<std::string> server_args;
  std::string server_xmx;
  // Where the target wrote (an embedded target's work directory, a started
  // server's data directory); nullopt when the target is not on this host.
  std::optional<StorageInfo> storage;
};

}  // namespace warmup

#endif  // WARMUP_RUN_CONFIG_H_
