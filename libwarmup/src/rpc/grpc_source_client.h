// The gRPC source over a client made elsewhere: the remote target reads its
// own catalog back through it for content verification, over the connection
// it published on. Internal: includes gRPC.
#ifndef WARMUP_SRC_RPC_GRPC_SOURCE_CLIENT_H_
#define WARMUP_SRC_RPC_GRPC_SOURCE_CLIENT_H_

#include <memory>
#include <string>

#include "rpc/client.h"
#include "warmup/catalog_source.h"
#include "warmup/grpc_source.h"

namespace warmup::rpc {

// As OpenGrpcSource, over `client` (options.tls and call_timeout_seconds are
// the client's already).
StatusOr<std::unique_ptr<CatalogSource>> OpenGrpcSourceWith(EvitaClient client, const std::string& catalog,
                                                            const GrpcSourceOptions& options = {});

}  // namespace warmup::rpc

#endif  // WARMUP_SRC_RPC_GRPC_SOURCE_CLIENT_H_
