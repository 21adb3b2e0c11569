// The remote target: publishes into an evitaDB-protocol server (warmup serve,
// or a real evitaDB with plaintext gRPC) over gRPC.
#ifndef WARMUP_REMOTE_TARGET_H_
#define WARMUP_REMOTE_TARGET_H_

#include <memory>
#include <string>

#include "warmup/catalog_target.h"
#include "warmup/status.h"

namespace warmup {

struct RemoteTargetOptions {
  // Deadline of each unary call, seconds. goLive has none unless golive_timeout_seconds is set.
  int call_timeout_seconds = 60;
  // A client-side limit for goLive; 0 = none.
  int golive_timeout_seconds = 0;
};

// Connects to `address` (host:port). Calls fail later, not here, when nothing
// listens. Errors: kInvalidArgument for an address CheckHostPort refuses.
StatusOr<std::unique_ptr<CatalogTarget>> MakeRemoteTarget(const std::string& address,
                                                          const RemoteTargetOptions& options = {});

}  // namespace warmup

#endif  // WARMUP_REMOTE_TARGET_H_
