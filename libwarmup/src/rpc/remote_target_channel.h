// The remote target over a gRPC channel made by the caller: the conformance
// suite runs it over an in-process channel, which leaves the socket out.
// Internal: includes gRPC.
#ifndef WARMUP_SRC_RPC_REMOTE_TARGET_CHANNEL_H_
#define WARMUP_SRC_RPC_REMOTE_TARGET_CHANNEL_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "warmup/remote_target.h"

namespace warmup::rpc {

// As MakeRemoteTarget, over `channel`; `name` stands for the address in
// Describe() and in messages.
std::unique_ptr<CatalogTarget> MakeRemoteTargetOnChannel(std::shared_ptr<::grpc::Channel> channel,
                                                         const std::string& name,
                                                         const RemoteTargetOptions& options = {});

}  // namespace warmup::rpc

#endif  // WARMUP_SRC_RPC_REMOTE_TARGET_CHANNEL_H_
