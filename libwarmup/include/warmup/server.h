// Server: the embedded engine behind evitaDB's gRPC protocol (the subset in
// libwarmup/proto), so the remote target, and evitaDB's own clients, can
// publish into it. Every upsert's response carries the server's own processing
// time in the trailing metadata entry `warmup-server-nanos`.
#ifndef WARMUP_SERVER_H_
#define WARMUP_SERVER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "warmup/engine.h"
#include "warmup/status.h"
#include "warmup/tls.h"

namespace warmup {

// Told when a catalog's write phases begin and end, e.g. to open and close a
// profiler window around them (warmup serve --profiler). Called on the
// server's threads, one call at a time, while the call being served waits:
// keep each short. Every method has an empty default.
class ServerObserver {
 public:
  virtual ~ServerObserver() = default;
  // An upsert into `catalog`, WARM_UP, is about to be applied, and it is the
  // first since the catalog was created or the server started.
  virtual void OnFirstUpsert(const std::string& catalog) { (void)catalog; }
  // goLive of `catalog` is about to start, and has ended (`ok` when ALIVE).
  virtual void OnGoLiveStart(const std::string& catalog) { (void)catalog; }
  virtual void OnGoLiveEnd(const std::string& catalog, bool ok) { (void)catalog, (void)ok; }
  // A session was closed because its client's connection had been gone for
  // ServerOptions::orphaned_session_grace_seconds; `description` says which
  // session, on which catalog, and whose client. Called from the server's
  // own thread.
  virtual void OnOrphanedSessionClosed(const std::string& description) { (void)description; }
  // A call was answered INTERNAL with neither a message nor details, as
  // evitaDB answers an exception it did not expect (then logging it);
  // `description` is what such a log line says: the call and the cause.
  virtual void OnInternalError(const std::string& description) { (void)description; }
};

struct ServerOptions {
  // The engine's data directory.
  std::string data_dir;
  // Where FullBackupCatalog writes its zips (as evitaDB's
  // export.fileSystem.directory); empty = data_dir + "-export".
  std::string export_dir;
  // host:port to listen on; port 0 picks a free one (see Server::port()).
  std::string listen = "127.0.0.1:5555";
  EngineOptions engine;
  // TLS (and mTLS with a client CA) for the gRPC port; plaintext when empty.
  ServerTlsOptions tls;
  // host:port of a plain-HTTP system endpoint answering GET
  // /system/server.crt with tls.cert_file, as evitaDB's system API does (port
  // 0 picks one, see Server::system_port()); empty = none. Needs tls.
  std::string system_listen;
  // Sessions idle longer than this are closed (evitaDB's
  // closeSessionsAfterSecondsOfInactivity); later calls on them fail
  // UNAUTHENTICATED. 60 as evitaDB ships (its default configuration); 0 =
  // never, as the upstream harness configures its server.
  int session_idle_seconds = 60;
  // A session whose client connection has been gone this long is closed, so
  // that a killed loader does not hold its warming-up catalog forever (the
  // catalog stays: `warmup catalogs --delete` removes it). A client that
  // carries a session to a new connection within this time keeps it. Only
  // TCP connections are watched. 0 = never.
  int orphaned_session_grace_seconds = 10;
  // Testing aid: goLive waits this long before it starts, so that client-side
  // timeouts can be tried against a slow transition.
  int golive_delay_ms = 0;
  // Testing aid: every UpsertEntity waits this long first (outside the
  // measured server time), so that a test can interrupt a load mid-way.
  int upsert_delay_ms = 0;
  // Simulates a slower build: every UpsertEntity spends this many more
  // microseconds inside the measured server time, busy as slower code would
  // be, so that a comparison can be checked against a known change.
  int inject_upsert_delay_us = 0;
  // Testing aid: the calls of the RPC `method` that come after its first
  // `after_calls` fail with UNAVAILABLE ("injected fault"), or, with `crash`,
  // the first of them ends the whole process at once by SIGKILL (a server
  // dying mid-read, as an OOM kill would end it), so that a client's failure
  // paths can be exercised against a real server. `method` is one of
  // InjectableMethods().
  struct InjectedFault {
    std::string method;
    int64_t after_calls = 0;
    bool crash = false;
  };
  std::vector<InjectedFault> faults;
  // Told about write phases (see ServerObserver); not owned, must outlive the
  // server; none when null.
  ServerObserver* observer = nullptr;
};

// The RPC names ServerOptions::faults accepts: UpsertEntity,
// GetEntityCollectionSize, GoLiveAndClose (with or without progress), Query
// and GetEntity.
const std::vector<std::string>& InjectableMethods();

// Thread-safety: Shutdown may be called from any thread (e.g. a signal watcher).
class Server {
 public:
  // Opens the engine and starts listening; the port is this server's alone
  // (no SO_REUSEPORT sharing).
  // Errors: kInvalidArgument for a listen address CheckHostPort refuses, TLS
  // settings CheckServerTls refuses, a system endpoint without TLS, or a
  // fault on a method not in InjectableMethods(); the engine's; kUnavailable
  // when the address cannot be bound (the port is in use, the host is not ours).
  static StatusOr<std::unique_ptr<Server>> Start(const ServerOptions& options);
  virtual ~Server() = default;
  // The port actually bound.
  virtual int port() const = 0;
  // The system endpoint's port; 0 without one.
  virtual int system_port() const = 0;
  // Stops accepting calls and finishes those in flight; the engine stays
  // open until the server (or, after ReleaseEngine, its new owner) is destroyed.
  virtual void Shutdown() = 0;
  // Blocks until Shutdown has been called and has finished.
  virtual void Wait() = 0;
  // After Wait: hands every record the engine holds buffered to the OS, as
  // destroying the server would (Engine::Flush), so that a process may end
  // without destroying it: freeing a large engine takes seconds, and a
  // supervisor waits for the process to end (warmup serve on SIGTERM).
  // Errors: Engine::Flush's.
  virtual Status Flush() = 0;
  // After Wait: gives the engine, with its catalogs, to the caller, so that
  // the server can be destroyed (its gRPC server, its threads and the
  // system endpoint's stopped and joined) without freeing the engine: a
  // process about to end need not spend seconds freeing a large one, and
  // must not end with the server's threads still running while its static
  // objects are destroyed (warmup serve on SIGTERM). The server serves no
  // call after it. REQUIRES: Wait has returned; called once.
  virtual std::unique_ptr<Engine> ReleaseEngine() = 0;
  // The engine's leftovers (see Engine::leftovers), for the start-up header.
  virtual std::vector<std::string> leftovers() const = 0;
  // Per RPC method (its short name, e.g. "UpsertEntity"), the `clientversion`
  // headers its calls carried so far, "" for a call without one: what a real
  // evitaDB decides some encodings by (structured associated data from 2025.4).
  virtual std::map<std::string, std::set<std::string>> ClientVersions() const = 0;
  // How many sessions are open now (idle ones past the limit included until
  // a call or the sweep closes them): what a client left behind.
  virtual int OpenSessions() const = 0;
};

}  // namespace warmup

#endif  // WARMUP_SERVER_H_
