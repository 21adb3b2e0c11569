// ServerIdentity: what a server said of itself when a run asked it (evitaDB's
// ServerStatus), so that a report names the server it measured, whether
// warmup started it or was pointed at it with --address.
#ifndef WARMUP_SERVER_IDENTITY_H_
#define WARMUP_SERVER_IDENTITY_H_

#include <string>

namespace warmup {

// How warmup serve begins the version it answers in ServerStatus ("warmup
// 0.1.0 (...)"): the one thing on the wire that tells it from evitaDB.
inline constexpr const char* kServeVersionPrefix = "warmup ";

struct ServerIdentity {
  std::string address;      // where it was asked
  std::string version;      // evitaDB's release, e.g. "2026.2.0-SNAPSHOT"; serve's begins kServeVersionPrefix
  std::string instance_id;  // evitaDB's id of this server instance; "" when it sent none
  std::string started_at;   // when it started, ISO 8601 with its offset; "" when it sent none
  // Its readiness as ServerStatus named it ("API_READY", "API_UNKNOWN", ...),
  // or "" when it has no management service (IsReady is all it answers).
  std::string readiness;
  // False when the server could not say it was ready, only that it took
  // calls (IsReady true with readiness API_UNKNOWN: evitaDB's answer when it
  // has no readiness probes, e.g. a build without its Observability module,
  // or no management service at all).
  bool readiness_probed = true;
  // Whether it is warmup serve (its version begins kServeVersionPrefix), not evitaDB.
  bool is_warmup_serve() const { return version.starts_with(kServeVersionPrefix); }
  // The product and its version: "evitaDB 2026.2.0-SNAPSHOT", serve's as it
  // said it ("warmup 0.1.0 (...)"); "" when it named none.
  std::string named_version() const {
    if (version.empty() || is_warmup_serve()) return version;
    return "evitaDB " + version;
  }
  friend bool operator==(const ServerIdentity&, const ServerIdentity&) = default;
};

}  // namespace warmup

#endif  // WARMUP_SERVER_IDENTITY_H_
