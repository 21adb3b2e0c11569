// The remote target: publishes into an evitaDB-protocol server (warmup serve,
// or a real evitaDB, plaintext or over TLS) over gRPC.
#ifndef WARMUP_REMOTE_TARGET_H_
#define WARMUP_REMOTE_TARGET_H_

#include <memory>
#include <string>

#include "warmup/catalog_target.h"
#include "warmup/status.h"
#include "warmup/tls.h"

namespace warmup {

struct RemoteTargetOptions {
  // Deadline of each unary call, seconds, but the upserts (below) and goLive
  // (none unless golive_timeout_seconds is set).
  int call_timeout_seconds = 60;
  // A client-side limit for goLive; 0 = none.
  int golive_timeout_seconds = 0;
  // Plaintext unless enabled (evitaDB serves gRPC over TLS only by default).
  ClientTlsOptions tls;
  // Deadline of each upsert, seconds: generous, because a server in WARM_UP
  // may hold one upsert for minutes (a flush, a full collection), and one
  // passed deadline aborts the whole load; the upstream harness waits an
  // hour. A passed deadline's error names the option as upsert_timeout_named.
  int upsert_timeout_seconds = 3600;
  // The write session is kept alive with a cheap call whenever it has had
  // none for this long, seconds, so that a gap in the load (a slow source, a
  // pause before goLive) outlasts the server's idle timeout (evitaDB closes a
  // session idle 60 s, checking once a minute). 0 = never.
  int session_keepalive_seconds = 20;
  // What a passed upsert deadline's error calls upsert_timeout_seconds: the
  // library's name by default; a frontend gives its own (the CLI its flag).
  std::string upsert_timeout_named = "upsert_timeout_seconds";
};

// Connects to `address` (host:port). Calls fail later, not here, when nothing
// listens. Errors: kInvalidArgument for an address CheckHostPort refuses or
// TLS settings CheckClientTls refuses; the certificate fetch's.
StatusOr<std::unique_ptr<CatalogTarget>> MakeRemoteTarget(const std::string& address,
                                                          const RemoteTargetOptions& options = {});

}  // namespace warmup

#endif  // WARMUP_REMOTE_TARGET_H_
