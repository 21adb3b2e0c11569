// What the two gRPC clients (remote target, gRPC source) share. Internal:
// includes gRPC, so only their .cc files include it.
#ifndef WARMUP_SRC_RPC_CLIENT_H_
#define WARMUP_SRC_RPC_CLIENT_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "warmup/status.h"

namespace warmup::rpc {

// `s` as a Status with the same code, its message prefixed by `call`.
Status FromGrpc(const ::grpc::Status& s, const std::string& call);

// A plaintext channel to `address` (host:port) that accepts messages of any
// size (pages of full entities are large) and never goes through a proxy
// (benchmarks run on loopback, and a proxy would be in every figure).
std::shared_ptr<::grpc::Channel> OpenChannel(const std::string& address);

}  // namespace warmup::rpc

#endif  // WARMUP_SRC_RPC_CLIENT_H_
