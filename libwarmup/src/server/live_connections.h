// Which clients are still connected: gRPC's synchronous server says nothing
// when a connection closes, so the server asks channelz (gRPC's own
// introspection, on by default) for the sockets its servers hold. Internal.
#ifndef WARMUP_SRC_SERVER_LIVE_CONNECTIONS_H_
#define WARMUP_SRC_SERVER_LIVE_CONNECTIONS_H_

#include <set>
#include <string>

#include "warmup/status.h"

namespace warmup::server {

// The peers ("ipv4:127.0.0.1:43368", as ServerContext::peer() spells them)
// of every open connection of every gRPC server in this process.
// Errors: kInternal when channelz answers something unreadable.
StatusOr<std::set<std::string>> LiveClientPeers();

// True for a peer LiveClientPeers can see (a TCP connection); an in-process
// channel's peer is never listed, so it is never taken for gone.
bool IsTrackablePeer(const std::string& peer);

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_LIVE_CONNECTIONS_H_
