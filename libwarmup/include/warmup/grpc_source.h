// A CatalogSource over a live evitaDB-protocol server (evitaDB or warmup
// serve, plaintext or over TLS): schema, counts, and each collection's entities with
// full content, in primary-key order, fetched in pages.
#ifndef WARMUP_GRPC_SOURCE_H_
#define WARMUP_GRPC_SOURCE_H_

#include <memory>
#include <string>

#include "warmup/catalog_source.h"
#include "warmup/status.h"
#include "warmup/tls.h"

namespace warmup {

struct GrpcSourceOptions {
  // Entities per Query page. Larger pages mean fewer round trips and bigger
  // messages (a page of 500 products is about 4 MB).
  int page_size = 500;
  // Deadline of each call, seconds.
  int call_timeout_seconds = 120;
  // Plaintext unless enabled (evitaDB serves gRPC over TLS only by default).
  ClientTlsOptions tls;
  // Read a catalog that is not ALIVE (one still warming up: a load under
  // way, or a failed one kept). Its content is whatever the load had reached,
  // so by default it is refused; the state is in Provenance() either way.
  bool allow_not_alive = false;
  // What the refusal of a catalog that is not ALIVE calls allow_not_alive:
  // the library's name by default; a frontend gives its own (the CLI its flag).
  std::string allow_not_alive_named = "allow_not_alive";
};

// Opens a read-only session on `catalog` at `address` (host:port) and reads
// its state, schema and counts. Provenance() holds "source.catalog_state"
// (e.g. "ALIVE") and "source.server" (the address).
// Errors: kInvalidArgument for an address CheckHostPort refuses or TLS
// settings CheckClientTls refuses; kNotFound for an unknown catalog;
// kFailedPrecondition for a catalog that is not ALIVE, naming its state,
// unless `options.allow_not_alive`; kUnavailable when nothing answers.
StatusOr<std::unique_ptr<CatalogSource>> OpenGrpcSource(const std::string& address,
                                                        const std::string& catalog,
                                                        const GrpcSourceOptions& options = {});

}  // namespace warmup

#endif  // WARMUP_GRPC_SOURCE_H_
