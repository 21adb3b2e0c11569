#include "rpc/client.h"

#include <chrono>

namespace warmup::rpc {

Status FromGrpc(const ::grpc::Status& s, const std::string& call) {
  if (s.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(s.error_code()), call + ": " + s.error_message());
}

namespace {

std::shared_ptr<::grpc::Channel> OpenChannel(const std::string& address) {
  ::grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  return ::grpc::CreateCustomChannel(address, ::grpc::InsecureChannelCredentials(), args);
}

}  // namespace

EvitaClient::EvitaClient(const std::string& address, int call_timeout_seconds)
    : EvitaClient(OpenChannel(address), address, call_timeout_seconds) {}

EvitaClient::EvitaClient(const std::shared_ptr<::grpc::Channel>& channel, std::string address,
                         int call_timeout_seconds)
    : address_(std::move(address)),
      call_timeout_seconds_(call_timeout_seconds),
      evita_(pb::EvitaService::NewStub(channel)),
      session_(pb::EvitaSessionService::NewStub(channel)) {}

std::unique_ptr<::grpc::ClientContext> EvitaClient::Context(const std::string& session_id,
                                                            std::optional<int> timeout_seconds) const {
  auto context = std::make_unique<::grpc::ClientContext>();
  const int seconds = timeout_seconds.value_or(call_timeout_seconds_);
  if (seconds > 0) context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
  context->AddMetadata("clientversion", kClientVersion);
  if (!session_id.empty()) context->AddMetadata("sessionid", session_id);
  return context;
}

Status EvitaClient::Call(const std::string& what, const std::string& session_id,
                         const std::function<::grpc::Status(::grpc::ClientContext*)>& call) const {
  auto context = Context(session_id);
  return FromGrpc(call(context.get()), what);
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

}  // namespace warmup::rpc
