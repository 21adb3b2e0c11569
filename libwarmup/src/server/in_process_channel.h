// A channel into a running warmup server that stays inside the process (no
// socket, no HTTP/2 framing over TCP): the same services and interceptors.
// Internal: includes gRPC.
#ifndef WARMUP_SRC_SERVER_IN_PROCESS_CHANNEL_H_
#define WARMUP_SRC_SERVER_IN_PROCESS_CHANNEL_H_

#include <grpcpp/grpcpp.h>

#include <memory>

#include "warmup/server.h"

namespace warmup::server {

// A channel to `server` (one that Server::Start returned) accepting replies
// of any size, as the socket client does.
std::shared_ptr<::grpc::Channel> InProcessChannel(Server& server);

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_IN_PROCESS_CHANNEL_H_
