// The remote CatalogTarget: evitaDB's gRPC protocol, client side.
#include "warmup/remote_target.h"

#include <grpcpp/grpcpp.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <thread>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "codec/entity_convert.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"
#include "rpc/client.h"

namespace warmup {
namespace {

using rpc::FromGrpc;

class RemoteTarget : public CatalogTarget {
 public:
  RemoteTarget(std::string address, RemoteTargetOptions options)
      : address_(std::move(address)), options_(options) {
    channel_ = rpc::OpenChannel(address_);
    evita_ = pb::EvitaService::NewStub(channel_);
    session_ = pb::EvitaSessionService::NewStub(channel_);
  }

  std::string Describe() const override { return "remote " + address_ + " (evitaDB gRPC protocol)"; }

  Status CreateCatalog(const CatalogSchema& schema) override {
    schema_ = schema;
    pb::GrpcGetCatalogStateRequest state_request;
    state_request.set_catalogname(schema_.name);
    pb::GrpcGetCatalogStateResponse state;
    {
      auto context = Context();
      if (Status s =
              FromGrpc(evita_->GetCatalogState(context.get(), state_request, &state), "GetCatalogState");
          !s.ok()) {
        return s;
      }
    }
    if (state.has_catalogstate())
      return AlreadyExistsError("catalog " + schema_.name + " exists on " + address_);
    pb::GrpcDefineCatalogRequest define;
    define.set_catalogname(schema_.name);
    pb::GrpcDefineCatalogResponse defined;
    {
      auto context = Context();
      if (Status s = FromGrpc(evita_->DefineCatalog(context.get(), define, &defined), "DefineCatalog");
          !s.ok()) {
        return s;
      }
    }
    auto session = OpenSession(true);
    if (!session.ok()) return session.status();
    write_session_ = *session;
    pb::GrpcUpdateCatalogSchemaRequest update;
    for (auto& m : codec::CatalogSchemaToMutations(schema_)) *update.add_schemamutations() = std::move(m);
    pb::GrpcUpdateCatalogSchemaResponse updated;
    auto context = Context(write_session_);
    return FromGrpc(session_->UpdateCatalogSchema(context.get(), update, &updated), "UpdateCatalogSchema");
  }

  Status Upsert(const Entity& entity, UpsertReceipt* receipt) override {
    UpsertReceipt ignored;
    if (receipt == nullptr) receipt = &ignored;
    *receipt = {};
    const EntitySchema* schema = schema_.FindEntity(entity.type);
    if (schema == nullptr)
      return InvalidArgumentError("entity " + EntityLabel(entity) + ": unknown entity type");
    auto mutation = codec::EntityToUpsertMutation(entity, *schema, codec::Existence::kMustNotExist);
    if (!mutation.ok()) return mutation.status();
    *request_.mutable_entitymutation() = std::move(mutation).value();
    receipt->request_bytes = static_cast<int64_t>(request_.ByteSizeLong());
    auto context = Context(write_session_);
    ::grpc::Status status = session_->UpsertEntity(context.get(), request_, &response_);
    const auto& trailers = context->GetServerTrailingMetadata();
    if (auto it = trailers.find("warmup-server-nanos"); it != trailers.end()) {
      // A trailer that is not a number is ignored, never thrown across the library boundary.
      int64_t nanos = 0;
      const auto [end, error] =
          std::from_chars(it->second.data(), it->second.data() + it->second.size(), nanos);
      if (error == std::errc() && end == it->second.data() + it->second.size()) receipt->server_nanos = nanos;
    }
    return FromGrpc(status, "UpsertEntity of " + EntityLabel(entity));
  }

  Status GoLive() override {
    ::grpc::ClientContext context;
    context.AddMetadata("sessionid", write_session_);
    if (options_.golive_timeout_seconds > 0) {
      context.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::seconds(options_.golive_timeout_seconds));
    }
    auto stream = session_->GoLiveAndCloseWithProgress(&context, google::protobuf::Empty());
    pb::GrpcGoLiveAndCloseWithProgressResponse progress;
    while (stream->Read(&progress)) {
    }
    write_session_.clear();  // goLive closes the session
    const Status status = FromGrpc(stream->Finish(), "GoLiveAndCloseWithProgress");
    if (status.ok()) return status;
    // The client gave up; the server may still finish. Say what it did.
    return Status(status.code(), status.message() + "; " +
                                     ServerSideOutcome(status.code() == StatusCode::kDeadlineExceeded));
  }

  StatusOr<int64_t> Count(const std::string& entity_type) override {
    if (read_session_.empty()) {
      auto session = OpenSession(false);
      if (!session.ok()) return session.status();
      read_session_ = *session;
    }
    pb::GrpcEntityCollectionSizeRequest request;
    request.set_entitytype(entity_type);
    pb::GrpcEntityCollectionSizeResponse response;
    auto context = Context(read_session_);
    if (Status s = FromGrpc(session_->GetEntityCollectionSize(context.get(), request, &response),
                            "GetEntityCollectionSize");
        !s.ok()) {
      return s;
    }
    return int64_t{response.size()};
  }

  Status DropCatalog() override {
    pb::GrpcDeleteCatalogIfExistsRequest request;
    request.set_catalogname(schema_.name);
    pb::GrpcDeleteCatalogIfExistsResponse response;
    auto context = Context();
    return FromGrpc(evita_->DeleteCatalogIfExists(context.get(), request, &response),
                    "DeleteCatalogIfExists");
  }

 private:
  // Polls the catalog's state after a client-side goLive failure, for up to
  // kPollLimit, and says whether and when the server reached ALIVE. When the
  // client's deadline passed, a catalog still WARMING_UP is polled for
  // kStartGrace more: a busy server may not yet have begun the transition.
  std::string ServerSideOutcome(bool deadline_passed) {
    constexpr auto kPollLimit = std::chrono::minutes(10);
    constexpr auto kStartGrace = std::chrono::seconds(5);
    const auto start = std::chrono::steady_clock::now();
    std::string last = "unknown";
    while (std::chrono::steady_clock::now() - start < kPollLimit) {
      pb::GrpcGetCatalogStateRequest request;
      request.set_catalogname(schema_.name);
      pb::GrpcGetCatalogStateResponse response;
      auto context = Context();
      const ::grpc::Status status = evita_->GetCatalogState(context.get(), request, &response);
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%.1f s", waited);
      if (!status.ok()) return "server-side outcome unknown: " + status.error_message() + " after " + seconds;
      last = response.has_catalogstate() ? pb::GrpcCatalogState_Name(response.catalogstate()) : "MISSING";
      if (response.has_catalogstate() && response.catalogstate() == pb::ALIVE) {
        return std::string("server-side: the catalog became ALIVE ") + seconds + " after the client gave up";
      }
      const bool may_not_have_started = deadline_passed && response.has_catalogstate() &&
                                        response.catalogstate() == pb::WARMING_UP &&
                                        std::chrono::steady_clock::now() - start < kStartGrace;
      if (!may_not_have_started &&
          (!response.has_catalogstate() || response.catalogstate() != pb::GOING_ALIVE)) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return "server-side: the catalog is " + last + ", not ALIVE";
  }

  // A context for a unary call: the call deadline and, when given, the session.
  std::unique_ptr<::grpc::ClientContext> Context(const std::string& session = "") const {
    auto context = std::make_unique<::grpc::ClientContext>();
    context->set_deadline(std::chrono::system_clock::now() +
                          std::chrono::seconds(options_.call_timeout_seconds));
    if (!session.empty()) context->AddMetadata("sessionid", session);
    return context;
  }

  StatusOr<std::string> OpenSession(bool read_write) {
    pb::GrpcEvitaSessionRequest request;
    request.set_catalogname(schema_.name);
    pb::GrpcEvitaSessionResponse response;
    auto context = Context();
    ::grpc::Status status = read_write ? evita_->CreateReadWriteSession(context.get(), request, &response)
                                       : evita_->CreateReadOnlySession(context.get(), request, &response);
    if (Status s = FromGrpc(status, read_write ? "CreateReadWriteSession" : "CreateReadOnlySession");
        !s.ok()) {
      return s;
    }
    return response.sessionid();
  }

  std::string address_;
  RemoteTargetOptions options_;
  std::shared_ptr<::grpc::Channel> channel_;
  std::unique_ptr<pb::EvitaService::Stub> evita_;
  std::unique_ptr<pb::EvitaSessionService::Stub> session_;
  CatalogSchema schema_;
  std::string write_session_;
  std::string read_session_;
  pb::GrpcUpsertEntityRequest request_;
  pb::GrpcUpsertEntityResponse response_;
};

}  // namespace

StatusOr<std::unique_ptr<CatalogTarget>> MakeRemoteTarget(const std::string& address,
                                                          const RemoteTargetOptions& options) {
  if (address.empty()) return InvalidArgumentError("remote target: empty address");
  return std::unique_ptr<CatalogTarget>(new RemoteTarget(address, options));
}

}  // namespace warmup
