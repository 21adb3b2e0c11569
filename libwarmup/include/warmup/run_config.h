// RunConfig: what a run was asked to do, as its report records it, so that
// runs that measured different things are never compared as if they had
// not (compare.h says which fields must agree).
#ifndef WARMUP_RUN_CONFIG_H_
#define WARMUP_RUN_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "warmup/record_storage.h"
#include "warmup/storage_info.h"

namespace warmup {

// What is checked after goLive.
enum class VerifyMode {
  kNone,     // nothing (the report says it was declined)
  kCounts,   // every collection's count against the source's
  kContent,  // the counts, then every entity read back and its digest compared with the source's
};
const char* VerifyModeName(VerifyMode mode);  // "none", "counts", "content"

struct RecordsUnknown {
  friend bool operator==(const RecordsUnknown&, const RecordsUnknown&) = default;
};
struct RecordsNotStored {
  friend bool operator==(const RecordsNotStored&, const RecordsNotStored&) = default;
};
using TargetRecords = std::variant<RecordsUnknown, RecordsNotStored, RecordStorage>;
// The report's config.compression and config.record_writes of `records`: a
// name (RecordCompressionName, RecordWritesName), "n/a" when none are
// stored, empty when unknown (the report writes null).
std::string CompressionWord(const TargetRecords& records);
std::string RecordWritesWord(const TargetRecords& records);

// What a run was asked to do, recorded whole in its report, so that runs
// that measured different things are never compared as if they had not
// (compare.h says which fields must agree).
struct RunConfig {
  // The command line as given (the tool, its command, its arguments); empty
  // for a run made through the library.
  std::vector<std::string> command_line;
  // The target's kind: TargetKindName for warmup's own, the target's Kind()
  // for a caller's ("jsonl"); empty = not said. A string, since any target
  // may name its kind.
  std::string target_kind;
  // How the target stores its records, as far as the run knows: how, from
  // the spec (an embedded target, a started warmup serve); that it stores
  // none (RecordsNotStored: the null target; "n/a" in the report); or
  // unknown (RecordsUnknown: a server warmup did not start, a command's own
  // settings, a caller's target).
  TargetRecords records;
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
