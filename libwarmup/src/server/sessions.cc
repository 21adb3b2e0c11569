#include "server/sessions.h"

#include <cstdio>
#include <random>

#include "server/live_connections.h"
#include "server/refusal.h"

namespace warmup::server {

std::string NewUuid() {
  static std::mt19937_64 rng(std::random_device{}());
  char buf[40];
  const uint64_t a = rng(), b = rng();
  std::snprintf(buf, sizeof(buf), "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xFFFF), static_cast<unsigned>(a & 0xFFF),
                static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3FFF)),
                static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFull));
  return buf;
}

StatusOr<std::string> SessionRegistry::Open(const std::string& catalog, bool read_write, bool warming_up,
                                            const std::string& peer, SteadyTime now) {
  if (warming_up) {
    for (const auto& [id, s] : sessions_) {
      if (s.catalog == catalog) {
        return Refusal("ConcurrentInitializationException",
                       "catalog " + catalog + " is warming up and session " + id + " is already open on it");
      }
    }
  }
  std::string id = NewUuid();
  sessions_[id] = {catalog, read_write, now, peer, std::nullopt};
  return id;
}

StatusOr<Session> SessionRegistry::Use(const std::string& id, const std::string& peer, SteadyTime now) {
  auto session = sessions_.find(id);
  if (session != sessions_.end() && idle_.count() > 0 && now - session->second.last_used > idle_) {
    sessions_.erase(session);  // closed for inactivity, as evitaDB does
    session = sessions_.end();
  }
  if (session == sessions_.end()) {
    return Status(StatusCode::kUnauthenticated,
                  "Your session (session id: " + id + ") is either not set or is not active.");
  }
  session->second.last_used = now;
  session->second.peer = peer;
  session->second.peer_gone_since.reset();
  return session->second;
}

bool SessionRegistry::Close(const std::string& id) { return sessions_.erase(id) > 0; }

void SessionRegistry::CloseCatalog(const std::string& catalog) {
  std::erase_if(sessions_, [&](const auto& s) { return s.second.catalog == catalog; });
}

std::vector<std::string> SessionRegistry::CloseOrphans(const std::set<std::string>& live,
                                                       std::chrono::seconds grace, SteadyTime now) {
  std::vector<std::string> closed;
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    Session& session = it->second;
    if (!IsTrackablePeer(session.peer) || live.contains(session.peer)) {
      session.peer_gone_since.reset();
    } else if (!session.peer_gone_since) {
      session.peer_gone_since = now;
    } else if (now - *session.peer_gone_since >= grace) {
      closed.push_back(std::string(session.read_write ? "read-write" : "read-only") + " session " +
                       it->first + " on catalog " + session.catalog + " (client " + session.peer +
                       " disconnected)");
      it = sessions_.erase(it);
      continue;
    }
    ++it;
  }
  return closed;
}

}  // namespace warmup::server
