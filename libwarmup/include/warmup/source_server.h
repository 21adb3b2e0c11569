// SourceServer: a server warmup starts on a copy of a server's own catalog
// folder (evitaDB's <CATALOG>/ of its storage directory) or on the folder
// unpacked from its backup zip (warmup/server_storage.h), so that the
// catalog can be read over gRPC like any live one (ServerFolderSourceSpec). The
// folder or zip itself is never opened by the server.
#ifndef WARMUP_SOURCE_SERVER_H_
#define WARMUP_SOURCE_SERVER_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "warmup/run_spec.h"
#include "warmup/server_figures.h"
#include "warmup/server_process.h"
#include "warmup/status.h"
#include "warmup/stop_request.h"
#include "warmup/work_dir.h"

namespace warmup {

class SourceServer {
 public:
  // Finds the catalog folder (FindServerCatalogFolder of spec.folder
  // and spec.catalog; when `folder` is a file, the folder of that backup
  // zip: ReadServerBackupZip), prepares `work_dir` as a work directory
  // (refusing any path of `in_use` inside it), copies the folder alone into
  // WORK/data/<CATALOG>/ (or unpacks it there), starts spec.server.command on WORK/data (its log
  // WORK/server.log, GC log WORK/gc.log) and waits, within
  // spec.server.start_timeout_seconds, until the server lists the catalog
  // ALIVE. `stop`, when not null, ends the wait early.
  // Errors: FindServerCatalogFolder's or ReadServerBackupZip's for
  // `folder`, in the context of names.source_dir (what the caller calls the
  // folder, e.g. a flag; names.catalog in their advice), and UnpackServerBackupZip's for a zip;
  // kFailedPrecondition when the server lists the catalog CORRUPTED or not ALIVE by the deadline (naming the
  // state it last said, with the last error lines of the server's log), or when stopped; the work directory's
  // and the server's start errors.
  static StatusOr<std::unique_ptr<SourceServer>> Start(const ServerFolderSourceSpec& spec,
                                                       const SpecNames& names, const std::string& work_dir,
                                                       const std::vector<PathInUse>& in_use,
                                                       const StopRequest* stop = nullptr);
  virtual ~SourceServer() = default;

  virtual std::string address() const = 0;  // 127.0.0.1:<port>
  virtual std::string catalog() const = 0;  // the folder's name, the catalog's
  // The folder or backup zip the catalog came from.
  virtual std::string origin() const = 0;
  // "the catalog folder P/C, read through a server started on a copy of it
  // in WORK/data (COMMAND; exited 0 after the run)", or "the backup zip Z
  // (catalog folder C), read through a server started on it unpacked in
  // ...": for a report's notes and a snapshot's provenance. How the server
  // ended is said once Stop was called ("ended during the run: ..." when it
  // had ended by itself).
  virtual std::string Describe() const = 0;
  // Once stopped: "the source server ended during the run (HOW)" when it had
  // ended by itself before Stop (a read that failed then failed for that),
  // else empty.
  virtual std::string DiedDuringRun() const = 0;
  // What a report's dataset provenance (and an export's manifest) records of
  // this source: "source.catalog_folder" (the pristine folder) or
  // "source.backup_zip" and "source.backup_zip_sha256" (the zip's SHA-256),
  // "source.server_command", and "source.storage_compress": the
  // -Dstorage.compress=... the command sets, or "not set (evitaDB's default,
  // false)" (evitaDB opens a compressed catalog only with it true).
  virtual std::map<std::string, std::string> Provenance() const = 0;
  // "\nthe source server's log FILE ends with:\n  LINE ..." when its log has
  // error lines, else empty: appended to a failure's message.
  virtual std::string LogErrors() const = 0;
  // A failed read's `message` with what the server adds to it: DiedDuringRun
  // first when it died, its LogErrors after.
  virtual std::string FailureMessage(const std::string& message) const = 0;
  // The process, for a ServerSampler while the catalog is read.
  virtual const ServerProcess& process() const = 0;
  // Stops the server (SIGTERM, then SIGKILL after the grace); its figures.
  // `after_failure`: the read failed, so a server that is dying is given up
  // to 2 s to end by itself first, that DiedDuringRun may say so. Idempotent.
  virtual ServerFigures Stop(bool after_failure) = 0;
};

}  // namespace warmup

#endif  // WARMUP_SOURCE_SERVER_H_
