// What errors call the values a caller gave: the library's words by default;
// a frontend gives its own (the CLI its flags, e.g. "--pristine-dir", Python
// its arguments, e.g. "source"), so that an error names what its user wrote.
// Its own header, without a .cc, because the snapshot readers low in the
// library name a source as the run above them does.
#ifndef WARMUP_SPEC_NAMES_H_
#define WARMUP_SPEC_NAMES_H_

#include <string>

namespace warmup {

// Each names a setting, never its value: the messages add the value.
struct SpecNames {
  std::string source_dir = "the source directory";  // SnapshotSourceSpec::dir, ServerFolderSourceSpec::folder
  std::string work_dir = "the work directory";      // the target's
  std::string per_entity_csv = "the per-entity CSV";
  std::string catalog = "the catalog";  // the snapshot or catalog folder chosen in source_dir
  // A source server's command (ServerFolderSourceSpec::server), as advice:
  // "read it with ... and <source_server> (a server started on a copy of it)".
  std::string source_server = "a source server command";
  std::string allow_not_alive = "allow_not_alive";        // LiveSourceSpec's, GrpcSourceOptions'
  std::string upsert_timeout = "upsert_timeout_seconds";  // ClientDeadlines', RemoteTargetOptions'
};

}  // namespace warmup

#endif  // WARMUP_SPEC_NAMES_H_
