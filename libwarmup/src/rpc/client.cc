#include "rpc/client.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "base/status_macros.h"
#include "codec/error_details.h"
#include "tls/tls_files.h"
#include "warmup/host_port.h"

namespace warmup::rpc {

Status FromGrpc(const ::grpc::Status& s, const std::string& call) {
  if (s.ok()) return OkStatus();
  // evitaDB refuses every misuse INVALID_ARGUMENT and names the exception in
  // the details: a missing catalog, or a session or catalog that cannot take
  // the call, is not an entity's fault, so it is told apart here.
  const codec::ErrorInfoFields info = codec::ReadErrorInfo(s.error_details());
  const std::string& domain = info.domain;
  auto code = static_cast<StatusCode>(s.error_code());
  if (code == StatusCode::kInvalidArgument && codec::IsCatalogNotFound(domain)) {
    code = StatusCode::kNotFound;
  } else if (code == StatusCode::kInvalidArgument && codec::IsSessionOrCatalogRefusal(domain)) {
    code = StatusCode::kFailedPrecondition;
  }
  std::string said = s.error_message();
  if (said.empty()) said = info.reason;
  std::string message = call + ": ";
  if (said.empty()) {
    // evitaDB answers an exception it did not expect (not one of its own)
    // INTERNAL with neither a message nor details, and logs it: the reason
    // is in the server's log only.
    message += std::string(StatusCodeName(code)) + " with no message from the server" +
               (code == StatusCode::kInternal
                    ? " (evitaDB answers so for an exception it did not expect; its log names it)"
                    : "");
  } else {
    message += said;
  }
  if (!domain.empty() && said.find(domain) == std::string::npos) message += " (" + domain + ")";
  return Status(code, std::move(message));
}

namespace {

StatusOr<std::shared_ptr<::grpc::Channel>> OpenChannel(const std::string& address,
                                                       const ClientTlsOptions& tls) {
  ::grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  if (!tls.enabled) {
    WARMUP_RETURN_IF_ERROR(CheckClientTls(tls));
    return ::grpc::CreateCustomChannel(address, ::grpc::InsecureChannelCredentials(), args);
  }
  WARMUP_ASSIGN_OR_RETURN(tls::ClientPem pem, tls::LoadClientPem(tls));
  ::grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = pem.roots;
  ssl.pem_cert_chain = pem.cert_chain;
  ssl.pem_private_key = pem.private_key;
  if (!tls.server_name.empty()) {
    args.SetSslTargetNameOverride(tls.server_name);
  } else if (!pem.fetched_names.empty()) {
    // A fetched certificate is trusted as itself (pinned), whatever host it
    // is reached by: evitaDB's own is issued for localhost (and 127.0.0.1,
    // ::1), which a client dialling "evita:5555" would otherwise refuse. The
    // name checked is then one the certificate carries.
    const auto dialled = SplitHostPort(address, AddressUse::kDial);
    const std::vector<std::string>& names = pem.fetched_names;
    if (!dialled.ok() || std::find(names.begin(), names.end(), dialled->host) == names.end()) {
      args.SetSslTargetNameOverride(names.front());
    }
  }
  return ::grpc::CreateCustomChannel(address, ::grpc::SslCredentials(ssl), args);
}

}  // namespace

StatusOr<EvitaClient> EvitaClient::Connect(const std::string& address, const ClientTlsOptions& tls,
                                           int call_timeout_seconds) {
  WARMUP_RETURN_IF_ERROR(CheckHostPort(address, AddressUse::kDial));
  WARMUP_ASSIGN_OR_RETURN(auto channel, OpenChannel(address, tls));
  EvitaClient client(channel, address, call_timeout_seconds);
  client.tls_ = tls.enabled;
  client.client_certificate_ = !tls.client_cert_file.empty();
  client.tls_names_ = tls.names;
  return client;
}

EvitaClient::EvitaClient(const std::shared_ptr<::grpc::Channel>& channel, std::string address,
                         int call_timeout_seconds)
    : channel_(channel),
      address_(std::move(address)),
      call_timeout_seconds_(call_timeout_seconds),
      evita_(pb::EvitaService::NewStub(channel)),
      session_(pb::EvitaSessionService::NewStub(channel)),
      management_(pb::EvitaManagementService::NewStub(channel)) {}

EvitaClient EvitaClient::Share(int call_timeout_seconds) const {
  EvitaClient shared(channel_, address_, call_timeout_seconds);
  shared.tls_ = tls_;
  shared.client_certificate_ = client_certificate_;
  shared.tls_names_ = tls_names_;
  return shared;
}

std::unique_ptr<::grpc::ClientContext> EvitaClient::Context(const std::string& session_id,
                                                            std::optional<int> timeout_seconds) const {
  auto context = std::make_unique<::grpc::ClientContext>();
  const int seconds = timeout_seconds.value_or(call_timeout_seconds_);
  if (seconds > 0) context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
  context->AddMetadata("clientversion", kClientVersion);
  if (!session_id.empty()) context->AddMetadata("sessionid", session_id);
  return context;
}

Status ExplainTransport(Status status, bool tls, bool client_certificate, const ClientTlsNames& names) {
  // evitaDB serves gRPC and its HTTP APIs on one port; under its default
  // tlsMode FORCE_TLS a plaintext request there gets HTTP 403 "This endpoint
  // requires TLS." (evita_external_api_core: HttpServiceSecurityDecorator).
  if (!tls && status.code() == StatusCode::kPermissionDenied &&
      status.message().find("403") != std::string::npos) {
    return FailedPreconditionError(status.message() +
                                   " (the server wants TLS, as evitaDB does by default: " + names.enable +
                                   ", with " + names.ca_cert + " or " + names.fetch_server_cert + ")");
  }
  // The transport says only "Socket closed" in both cases below.
  if (status.code() == StatusCode::kUnavailable &&
      status.message().find("Socket closed") != std::string::npos) {
    return Status(
        status.code(),
        status.message() +
            (tls ? (client_certificate ? " (over mTLS; the server may not accept this client certificate)"
                                       : " (over TLS; a server that wants client certificates (mTLS) "
                                         "drops a client without one it accepts)")
                 : " (over plaintext; a server that accepts TLS only drops such connections, as warmup "
                   "serve given a TLS certificate does, while evitaDB answers them HTTP 403: then connect "
                   "with "
                   "TLS)"));
  }
  return status;
}

Status EvitaClient::Call(const std::string& what, const std::string& session_id,
                         const std::function<::grpc::Status(::grpc::ClientContext*)>& call) const {
  auto context = Context(session_id);
  return ExplainTransport(FromGrpc(call(context.get()), what), tls_, client_certificate_, tls_names_);
}

StatusOr<std::string> EvitaClient::OpenSession(const std::string& catalog, bool read_write) const {
  pb::GrpcEvitaSessionRequest request;
  request.set_catalogname(catalog);
  pb::GrpcEvitaSessionResponse response;
  const std::string what =
      std::string(read_write ? "CreateReadWriteSession" : "CreateReadOnlySession") + " on " + address_;
  if (Status s = Call(what, "",
                      [&](::grpc::ClientContext* c) {
                        return read_write ? evita_->CreateReadWriteSession(c, request, &response)
                                          : evita_->CreateReadOnlySession(c, request, &response);
                      });
      !s.ok()) {
    if (s.code() == StatusCode::kNotFound) {
      return NotFoundError("catalog " + catalog + " does not exist on " + address_);
    }
    return s;
  }
  return response.sessionid();
}

Status EvitaClient::CloseSession(const std::string& session_id) const {
  constexpr int kCloseSeconds = 5;
  auto context = Context(session_id, kCloseSeconds);
  pb::GrpcCloseRequest request;
  pb::GrpcCloseResponse response;
  return FromGrpc(session_->Close(context.get(), request, &response), "Close on " + address_);
}

}  // namespace warmup::rpc
