#include "server/live_connections.h"

#include <grpc/grpc.h>
#include <grpc/support/alloc.h>

#include <charconv>
#include <memory>
#include <nlohmann/json.hpp>

namespace warmup::server {
namespace {

using json = nlohmann::json;

// One channelz answer, parsed; the string it came in is freed.
StatusOr<json> Channelz(char* answer, const char* what) {
  if (answer == nullptr) return InternalError(std::string("channelz ") + what + ": no answer");
  std::unique_ptr<char, void (*)(void*)> owned(answer, gpr_free);
  json parsed = json::parse(answer, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return InternalError(std::string("channelz ") + what + ": not a JSON object");
  }
  return parsed;
}

// channelz spells ids as decimal strings.
intptr_t Id(const json& ref, const char* key) {
  const auto it = ref.find(key);
  if (it == ref.end() || !it->is_string()) return -1;
  const std::string& text = it->get_ref<const std::string&>();
  intptr_t id = -1;
  if (std::from_chars(text.data(), text.data() + text.size(), id).ec != std::errc()) return -1;
  return id;
}

}  // namespace

bool IsTrackablePeer(const std::string& peer) {
  return peer.starts_with("ipv4:") || peer.starts_with("ipv6:");
}

StatusOr<std::set<std::string>> LiveClientPeers() {
  std::set<std::string> peers;
  std::vector<intptr_t> servers;
  for (intptr_t start = 0;;) {
    auto page = Channelz(grpc_channelz_get_servers(start), "servers");
    if (!page.ok()) return page.status();
    for (const json& server : page->value("server", json::array())) {
      const intptr_t id = Id(server.value("ref", json::object()), "serverId");
      if (id >= 0) servers.push_back(id);
      start = std::max(start, id + 1);
    }
    if (page->value("end", false) || page->value("server", json::array()).empty()) break;
  }
  constexpr intptr_t kPage = 500;
  for (const intptr_t server : servers) {
    for (intptr_t start = 0;;) {
      auto page = Channelz(grpc_channelz_get_server_sockets(server, start, kPage), "server sockets");
      if (!page.ok()) return page.status();
      const json sockets = page->value("socketRef", json::array());
      for (const json& socket : sockets) {
        // "chttp2 ipv4:127.0.0.1:43368": the transport, then the peer.
        const std::string name = socket.value("name", "");
        const size_t space = name.find(' ');
        if (space != std::string::npos) peers.insert(name.substr(space + 1));
        start = std::max(start, Id(socket, "socketId") + 1);
      }
      if (page->value("end", false) || sockets.empty()) break;
    }
  }
  return peers;
}

}  // namespace warmup::server
