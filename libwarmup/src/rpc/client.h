// The one evitaDB client both gRPC users (remote target, gRPC source) talk
// through: a channel, the two service stubs, and every call's context (call
// deadline, clientversion, session). Internal: includes gRPC and generated
// headers, so only rpc/*.cc include it.
#ifndef WARMUP_SRC_RPC_CLIENT_H_
#define WARMUP_SRC_RPC_CLIENT_H_

#include <grpcpp/grpcpp.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaManagementAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "codec/pb.h"
#include "warmup/status.h"
#include "warmup/tls.h"

namespace warmup::rpc {

// The evitaDB version this client speaks as (the `clientversion` header): a
// real evitaDB sends complex associated data as structured objects only to
// clients of 2025.4 or later.
inline constexpr const char* kClientVersion = "2026.2.3";

// `s` as a Status, its message prefixed by `call`. The code is `s`'s, except
// for an INVALID_ARGUMENT whose details name evitaDB's exception (the name is
// added to the message): a missing catalog is kNotFound, a session or catalog
// that cannot take the call (codec::IsSessionOrCatalogRefusal) is
// kFailedPrecondition, so that neither passes for a rejected entity.
Status FromGrpc(const ::grpc::Status& s, const std::string& call);

// `status` of a call made over TLS (`tls`, with a client certificate when
// `client_certificate`) or plaintext, with what the transport's own words
// leave out: a plaintext call to evitaDB's default TLS-only endpoint is
// answered HTTP 403, which gRPC reports as PERMISSION_DENIED "status: 403"
// (then kFailedPrecondition "the server wants TLS: ...", advice in the words
// of `names`, the caller's); a server that drops the connection says only
// "Socket closed". Other statuses are returned as they are.
Status ExplainTransport(Status status, bool tls, bool client_certificate, const ClientTlsNames& names = {});

class EvitaClient {
 public:
  // A channel to `address` (host:port), plaintext or as `tls` says, that
  // accepts messages of any size (pages of full entities are large) and never
  // goes through a proxy (benchmarks run on loopback, and a proxy would be in
  // every figure). Each unary call gets `call_timeout_seconds`. Nothing is
  // dialled yet. Errors: kInvalidArgument for an address CheckHostPort
  // refuses or TLS settings CheckClientTls refuses; the certificate fetch's
  // (see ClientTlsOptions::fetch_server_cert_from).
  static StatusOr<EvitaClient> Connect(const std::string& address, const ClientTlsOptions& tls,
                                       int call_timeout_seconds);
  // Over a channel made elsewhere (an in-process one, for tests); `address`
  // only names it in messages.
  EvitaClient(const std::shared_ptr<::grpc::Channel>& channel, std::string address, int call_timeout_seconds);

  // Another client over the same channel (and so the same connection and
  // credentials), with its own stubs and `call_timeout_seconds`.
  EvitaClient Share(int call_timeout_seconds) const;

  const std::string& address() const { return address_; }
  // "plaintext", "TLS" or "mTLS" (TLS with a client certificate): for Describe().
  const char* transport() const { return tls_ ? (client_certificate_ ? "mTLS" : "TLS") : "plaintext"; }
  pb::EvitaService::Stub& evita() const { return *evita_; }
  pb::EvitaSessionService::Stub& session() const { return *session_; }
  pb::EvitaManagementService::Stub& management() const { return *management_; }

  // A context carrying clientversion and, when not empty, `session_id`; its
  // deadline is the call timeout, or `timeout_seconds` when given (0 = none,
  // for a call whose length is the measurement, such as goLive).
  std::unique_ptr<::grpc::ClientContext> Context(const std::string& session_id = "",
                                                 std::optional<int> timeout_seconds = std::nullopt) const;
  // Runs one unary call with a fresh Context(session_id); the error names
  // `what`; a connection the server closed unexplained gets the likely
  // reason (plaintext to a TLS-only server; no client certificate for mTLS).
  Status Call(const std::string& what, const std::string& session_id,
              const std::function<::grpc::Status(::grpc::ClientContext*)>& call) const;
  // Opens a session on `catalog` and returns its id. Errors: kNotFound when
  // the catalog does not exist; any other as the server said it.
  StatusOr<std::string> OpenSession(const std::string& catalog, bool read_write) const;
  // Closes the session `session_id`, as evitaDB's own client does when done
  // with one, so that it does not hold the catalog (a warming-up catalog
  // takes one session at a time) until the server's idle timeout. Best
  // effort, within a few seconds: the error is returned, and a caller that is
  // only tidying up may ignore it.
  Status CloseSession(const std::string& session_id) const;

 private:
  std::shared_ptr<::grpc::Channel> channel_;
  std::string address_;
  int call_timeout_seconds_;
  bool tls_ = false;
  bool client_certificate_ = false;
  ClientTlsNames tls_names_;  // what the advice of ExplainTransport calls the settings
  std::unique_ptr<pb::EvitaService::Stub> evita_;
  std::unique_ptr<pb::EvitaSessionService::Stub> session_;
  std::unique_ptr<pb::EvitaManagementService::Stub> management_;
};

}  // namespace warmup::rpc

#endif  // WARMUP_SRC_RPC_CLIENT_H_
