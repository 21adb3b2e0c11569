// The server's sessions: who holds which catalog, read-only or read-write,
// when each was last used and on which connection, as evitaDB's
// SessionRegistry keeps them. Not thread-safe: the server calls it under its
// one lock. Times are passed in, so that expiry is tested without waiting.
// Internal to server/.
#ifndef WARMUP_SRC_SERVER_SESSIONS_H_
#define WARMUP_SRC_SERVER_SESSIONS_H_

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "warmup/status.h"

namespace warmup::server {

using SteadyTime = std::chrono::steady_clock::time_point;

struct Session {
  std::string catalog;
  bool read_write = false;
  SteadyTime last_used;
  // The connection it was last used on (ServerContext::peer()), and since
  // when that connection has been gone.
  std::string peer;
  std::optional<SteadyTime> peer_gone_since;
};

// A random version-4 UUID, as evitaDB names sessions and catalogs.
std::string NewUuid();

class SessionRegistry {
 public:
  // Sessions unused for longer than `idle` are closed when next asked for
  // (evitaDB's closeSessionsAfterSecondsOfInactivity); zero keeps them.
  explicit SessionRegistry(std::chrono::seconds idle) : idle_(idle) {}

  // Opens a session on `catalog` and returns its id. A catalog warming up
  // takes one session at a time, as in evitaDB.
  // Errors: kInvalidArgument "ConcurrentInitializationException: ..." when
  // `warming_up` and a session is open on `catalog`.
  StatusOr<std::string> Open(const std::string& catalog, bool read_write, bool warming_up,
                             const std::string& peer, SteadyTime now);

  // The session `id`, marked used at `now` on `peer` (a client may carry its
  // session to a new connection).
  // Errors: kUnauthenticated, worded as evitaDB's, when there is no such
  // session or it was idle too long (and is closed now).
  StatusOr<Session> Use(const std::string& id, const std::string& peer, SteadyTime now);

  // Closes session `id`; false when there was none.
  bool Close(const std::string& id);
  // Closes every session on `catalog` (the catalog is deleted).
  void CloseCatalog(const std::string& catalog);

  // Closes the sessions whose connection has been missing from `live` for
  // `grace` or longer (a client killed, or gone without closing them), so
  // that a warming-up catalog is not held by a writer that never comes back.
  // A peer that cannot be tracked (an in-process channel) is never missing.
  // Returns what was closed, each described for a log line.
  std::vector<std::string> CloseOrphans(const std::set<std::string>& live, std::chrono::seconds grace,
                                        SteadyTime now);

  int Count() const { return static_cast<int>(sessions_.size()); }

 private:
  std::chrono::seconds idle_;
  std::map<std::string, Session> sessions_;
};

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_SESSIONS_H_
