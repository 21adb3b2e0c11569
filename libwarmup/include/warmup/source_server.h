// SourceServer: a server warmup starts on a copy of a server's own catalog
// folder (evitaDB's <CATALOG>/ of its storage directory, as a backup holds
// it), so that the catalog can be read over gRPC like any live one
// (SourceSpec::server). The folder itself is never opened by the server.
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
  // Finds the catalog folder (spec.pristine_dir/spec.catalog, or the only
  // subdirectory of pristine_dir), prepares `work_dir` as a work directory
  // (refusing any path of `in_use` inside it), copies the folder alone into
  // WORK/data/<CATALOG>/, starts spec.server.command on WORK/data (its log
  // WORK/server.log, GC log WORK/gc.log) and waits, within
  // spec.server.start_timeout_seconds, until the server lists the catalog
  // ALIVE. `stop`, when not null, ends the wait early.
  // Errors: kInvalidArgument for a pristine_dir that is not a directory or
  // holds no such folder (naming the folders it holds), or several without
  // spec.catalog; kFailedPrecondition when the server lists the catalog
  // CORRUPTED or not ALIVE by the deadline (naming the state it last said,
  // with the last error lines of the server's log), or when stopped; the
  // work directory's and the server's start errors.
  static StatusOr<std::unique_ptr<SourceServer>> Start(const SourceSpec& spec, const std::string& work_dir,
                                                       const std::vector<PathInUse>& in_use,
                                                       const StopRequest* stop = nullptr);
  virtual ~SourceServer() = default;

  virtual std::string address() const = 0;  // 127.0.0.1:<port>
  virtual std::string catalog() const = 0;  // the folder's name, the catalog's
  // "the catalog folder P/C, read through a server started on a copy of it
  // in WORK/data (COMMAND; ENDED after the run)": for a report's notes and a
  // snapshot's provenance; `ended` is ServerFigures::ended.
  virtual std::string Describe(const std::string& ended) const = 0;
  // What a report's dataset provenance (and an export's manifest) records of
  // this source: "source.catalog_folder" (the pristine folder),
  // "source.server_command", and "source.storage_compress": the
  // -Dstorage.compress=... the command sets, or "not set (evitaDB's default,
  // false)" (evitaDB opens a compressed catalog only with it true).
  virtual std::map<std::string, std::string> Provenance() const = 0;
  // "\nthe source server's log FILE ends with:\n  LINE ..." when its log has
  // error lines, else empty: appended to a failure's message.
  virtual std::string LogErrors() const = 0;
  // The process, for a ServerSampler while the catalog is read.
  virtual const ServerProcess& process() const = 0;
  // Stops the server (SIGTERM, then SIGKILL after the grace); its figures.
  virtual ServerFigures Stop() = 0;
};

// When `path` is a server's catalog folder or a storage directory holding
// such folders (evitaDB's: a <CATALOG>.boot and <CATALOG>_N.catalog files;
// warmup serve's: a catalog.header), what it is and the flags that read it
// through a source server, e.g. "an evitaDB catalog folder (senesi): read it
// with --pristine-dir /data --catalog senesi --source-server-command '...'";
// empty for anything else (a warmup snapshot, a file, neither).
std::string DescribeServerStorage(const std::string& path);

}  // namespace warmup

#endif  // WARMUP_SOURCE_SERVER_H_
