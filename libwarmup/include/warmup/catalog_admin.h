// Catalogs on a running server (warmup serve or evitaDB), over evitaDB's
// protocol: what `warmup catalogs` lists and deletes, e.g. the WARMING_UP
// catalog of a load that was killed before it could drop it.
#ifndef WARMUP_CATALOG_ADMIN_H_
#define WARMUP_CATALOG_ADMIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "warmup/latency_stats.h"
#include "warmup/server_identity.h"
#include "warmup/status.h"
#include "warmup/tls.h"

namespace warmup {

struct ServerCatalog {
  std::string name;
  std::string state;  // WARMING_UP, GOING_ALIVE, ALIVE, ... as the server names it; "?" when it did not say
};

struct ServerAdminOptions {
  // Deadline of each call, seconds.
  int call_timeout_seconds = 60;
  ClientTlsOptions tls;
};

// Every catalog on the server at `address`, by name.
// Errors: kInvalidArgument for an address CheckHostPort refuses or TLS
// settings CheckClientTls refuses; kUnavailable (or the server's error)
// naming the call that failed.
StatusOr<std::vector<ServerCatalog>> ListServerCatalogs(const std::string& address,
                                                        const ServerAdminOptions& options = {});

// Deletes the catalog `name` and with it every session open on it.
// Errors: as ListServerCatalogs; kNotFound when there is no such catalog.
Status DeleteServerCatalog(const std::string& address, const std::string& name,
                           const ServerAdminOptions& options = {});

// A catalog's full backup, fetched from its server.
struct ServerBackup {
  std::string path;           // where the zip was written
  int64_t bytes = 0;          // its size, as the server announced and as written
  std::string server_file;    // the name the server gave it; it keeps its copy
  double backup_seconds = 0;  // from the request until the server's task finished
  double fetch_seconds = 0;   // the download
};

// Asks the server at `address` for a full backup of `catalog` (evitaDB's
// FullBackupCatalog, on a read-write session as evitaDB requires: a zip of
// the catalog's folder as its storage holds it, which a source server reads,
// warmup/source_server.h), waits until the server's task has finished, and
// fetches the zip into `out_path`, a new file (never overwritten; removed
// again when anything fails), the backup and the download within
// `timeout_seconds` together. The server keeps its own copy in its export
// directory.
// Errors: kAlreadyExists when `out_path` exists; kUnavailable when it cannot
// be created, written or synced; as ListServerCatalogs; kNotFound for no
// such catalog; kFailedPrecondition when the server's task failed (its
// exception in the message); kDeadlineExceeded at the timeout (naming the
// task's state and progress); kDataLoss when fewer or more bytes arrive
// than the server announced.
StatusOr<ServerBackup> BackupServerCatalog(const std::string& address, const std::string& catalog,
                                           const std::string& out_path, int timeout_seconds,
                                           const ServerAdminOptions& options = {});

// Whether the server at `address` takes calls, and what it says of itself.
// Ready means evitaDB's IsReady answers true and, when the server has the
// management service, its ServerStatus says API_READY (evitaDB answers
// IsReady as soon as gRPC is up, while its other APIs may still be
// starting) or API_UNKNOWN: evitaDB's answer when it has no readiness probes
// to run (a build without its Observability module), which after IsReady
// can only mean "no probe", so it is taken as ready with
// ServerIdentity::readiness_probed false. How a started server is known to
// be ready without reading its output; the identity goes into the report.
// Errors: kUnavailable while nothing answers, or it answers not ready
// (IsReady false, or API_STARTING, API_STALLING, API_SHUTDOWN: the message
// says which); kFailedPrecondition when it wants TLS and was asked in
// plaintext (it will never answer otherwise); kInvalidArgument as
// ListServerCatalogs.
StatusOr<ServerIdentity> CheckServerReady(const std::string& address, const ServerAdminOptions& options = {});

// `calls` unary round trips (IsReady, the cheapest call evitaDB's protocol
// has) to the server at `address`, one after another on one channel, after
// `warm_up_calls` that are not counted: what one call costs on this path
// with no work behind it, the floor under every remote upsert.
// Errors: as CheckServerReady's first call; kInvalidArgument when calls < 1.
StatusOr<LatencyStats> MeasureRoundTrips(const std::string& address, int calls, int warm_up_calls = 200,
                                         const ServerAdminOptions& options = {});

}  // namespace warmup

#endif  // WARMUP_CATALOG_ADMIN_H_
