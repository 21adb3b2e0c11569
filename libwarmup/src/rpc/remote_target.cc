// The remote CatalogTarget: evitaDB's gRPC protocol, client side.
#include "warmup/remote_target.h"

#include <functional>
#include <map>

#include <grpcpp/grpcpp.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <thread>

#include "base/mutex.h"
#include "codec/entity_mutations.h"
#include "codec/pb.h"
#include "codec/schema_mutations.h"
#include "rpc/client.h"
#include "rpc/grpc_source_client.h"
#include "rpc/remote_target_channel.h"
#include "warmup/host_port.h"

namespace warmup {
namespace {

using rpc::FromGrpc;

// Each item of `schema` evitaDB cannot define over gRPC, with why
// (WhyEvitaCannotTakeOverGrpc), by entity type: what a refusal of the
// schema, or of an entity of that type, is most likely about.
std::map<std::string, std::string> GrpcTypeDefects(const CatalogSchema& schema) {
  std::map<std::string, std::string> found;
  auto add = [&](const std::string& type, const std::string& item, ValueType value_type, TypeUse use) {
    const std::string_view why = WhyEvitaCannotTakeOverGrpc(value_type, use);
    if (why.empty()) return;
    std::string& text = found[type];
    text += (text.empty() ? "" : "; ") + item + " (" + std::string(ValueTypeName(value_type)) +
            "): " + std::string(why);
  };
  for (const auto& [type, entity] : schema.entities) {
    for (const auto& [name, a] : entity.attributes) {
      add(type, "attribute " + name, a.type, TypeUse::kAttribute);
    }
    for (const auto& [name, d] : entity.associated_data) {
      add(type, "associated data " + name, d.type, TypeUse::kAssociatedData);
    }
    for (const auto& [reference, r] : entity.references) {
      for (const auto& [name, a] : r.attributes) {
        add(type, "attribute " + name + " of reference " + reference, a.type, TypeUse::kAttribute);
      }
    }
  }
  return found;
}

class RemoteTarget : public CatalogTarget {
 public:
  RemoteTarget(rpc::EvitaClient client, RemoteTargetOptions options)
      : options_(options), client_(std::move(client)) {}
  // A write session still open (a failed run whose catalog is kept) is
  // closed: left open, it would hold the warming-up catalog against every
  // other session until the server's timeout. So is the session the counts
  // were read in.
  ~RemoteTarget() override {
    StopKeeper();
    if (!write_session_.empty()) (void)client_.CloseSession(write_session_);
    if (!read_session_.empty()) (void)client_.CloseSession(read_session_);
  }

  std::string Describe() const override {
    return "remote " + client_.address() + " (evitaDB gRPC protocol, " + client_.transport() + ")";
  }
  std::string Kind() const override { return "remote"; }

  Status CreateCatalog(const CatalogSchema& schema) override {
    schema_ = schema;
    pb::GrpcGetCatalogStateRequest state_request;
    state_request.set_catalogname(schema_.name);
    pb::GrpcGetCatalogStateResponse state;
    if (Status s = client_.Call(
            "GetCatalogState", "",
            [&](auto* context) { return client_.evita().GetCatalogState(context, state_request, &state); });
        !s.ok()) {
      return s;
    }
    if (state.has_catalogstate()) {
      return AlreadyExistsError("catalog " + schema_.name + " exists on " + client_.address());
    }
    pb::GrpcDefineCatalogRequest define;
    define.set_catalogname(schema_.name);
    pb::GrpcDefineCatalogResponse defined;
    if (Status s = client_.Call(
            "DefineCatalog", "",
            [&](auto* context) { return client_.evita().DefineCatalog(context, define, &defined); });
        !s.ok()) {
      return s;
    }
    auto session = client_.OpenSession(schema_.name, /*read_write=*/true);
    if (!session.ok()) return session.status();
    write_session_ = *session;
    pb::GrpcUpdateCatalogSchemaRequest update;
    for (auto& m : codec::CatalogSchemaToMutations(schema_)) *update.add_schemamutations() = std::move(m);
    pb::GrpcUpdateCatalogSchemaResponse updated;
    Status schema_set = client_.Call("UpdateCatalogSchema", write_session_, [&](auto* context) {
      return client_.session().UpdateCatalogSchema(context, update, &updated);
    });
    grpc_type_defects_ = GrpcTypeDefects(schema_);
    if (!schema_set.ok()) {
      std::string all;
      for (const auto& [type, why] : grpc_type_defects_) all += (all.empty() ? "" : "; ") + type + " " + why;
      if (all.empty()) return schema_set;
      return Status(schema_set.code(),
                    schema_set.message() + "; the schema has what evitaDB cannot take: " + all);
    }
    {
      MutexLock lock(session_mu_);  // no keeper yet: uncontended, taken for the analysis
      last_call_ = std::chrono::steady_clock::now();
    }
    StartKeeper();  // from here on, calls on the session may come from two threads
    return schema_set;
  }

  Status Upsert(const Entity& entity, UpsertReceipt* receipt) override {
    UpsertReceipt ignored;
    if (receipt == nullptr) receipt = &ignored;
    *receipt = {};
    const EntitySchema* schema = schema_.FindEntity(entity.type);
    if (schema == nullptr) {
      return InvalidArgumentError("entity " + EntityLabel(entity) + ": unknown entity type");
    }
    auto mutation = codec::EntityToUpsertMutation(entity, *schema, codec::Existence::kMustNotExist);
    if (!mutation.ok()) return mutation.status();
    *request_.mutable_entitymutation() = std::move(mutation).value();
    receipt->request_bytes = static_cast<int64_t>(request_.ByteSizeLong());
    auto context = client_.Context(write_session_, options_.upsert_timeout_seconds);
    ::grpc::Status status;
    {
      MutexLock lock(session_mu_);  // never beside the keeper's call
      status = client_.session().UpsertEntity(context.get(), request_, &response_);
      last_call_ = std::chrono::steady_clock::now();
    }
    if (status.error_code() == ::grpc::StatusCode::DEADLINE_EXCEEDED) {
      return Status(StatusCode::kDeadlineExceeded, "UpsertEntity of " + EntityLabel(entity) +
                                                       ": no answer within the upsert deadline of " +
                                                       std::to_string(options_.upsert_timeout_seconds) +
                                                       " s (" + options_.upsert_timeout_named + ")");
    }
    const auto& trailers = context->GetServerTrailingMetadata();
    if (auto it = trailers.find("warmup-server-nanos"); it != trailers.end()) {
      // A trailer that is not a number is ignored, never thrown across the library boundary.
      int64_t nanos = 0;
      const auto [end, error] =
          std::from_chars(it->second.data(), it->second.data() + it->second.size(), nanos);
      if (error == std::errc() && end == it->second.data() + it->second.size()) receipt->server_nanos = nanos;
    }
    Status upserted = FromGrpc(status, "UpsertEntity of " + EntityLabel(entity));
    if (upserted.code() == StatusCode::kInvalidArgument) {
      if (auto defect = grpc_type_defects_.find(entity.type); defect != grpc_type_defects_.end()) {
        return Status(upserted.code(), upserted.message() + "; " + entity.type +
                                           " has what evitaDB cannot take: " + defect->second);
      }
    }
    return upserted;
  }

  void SetGoLiveProgress(std::function<void(int percent)> on_progress) override {
    on_golive_progress_ = std::move(on_progress);
  }

  Status GoLive() override {
    StopKeeper();  // a session inside a call is never idle, and goLive ends it
    auto context = client_.Context(write_session_, options_.golive_timeout_seconds);
    auto stream = client_.session().GoLiveAndCloseWithProgress(context.get(), google::protobuf::Empty());
    pb::GrpcGoLiveAndCloseWithProgressResponse progress;
    while (stream->Read(&progress)) {
      if (on_golive_progress_) on_golive_progress_(progress.progressinpercent());
    }
    write_session_.clear();  // goLive closes the session
    Status status = FromGrpc(stream->Finish(), "GoLiveAndCloseWithProgress");
    if (status.ok()) return status;
    // The client gave up; the server may still finish. Say what it did.
    return Status(status.code(), status.message() + "; " +
                                     ServerSideOutcome(status.code() == StatusCode::kDeadlineExceeded));
  }

  StatusOr<int64_t> Count(const std::string& entity_type) override {
    if (read_session_.empty()) {
      auto session = client_.OpenSession(schema_.name, /*read_write=*/false);
      if (!session.ok()) return session.status();
      read_session_ = *session;
    }
    pb::GrpcEntityCollectionSizeRequest request;
    request.set_entitytype(entity_type);
    pb::GrpcEntityCollectionSizeResponse response;
    if (Status s = client_.Call("GetEntityCollectionSize", read_session_,
                                [&](auto* context) {
                                  return client_.session().GetEntityCollectionSize(context, request,
                                                                                   &response);
                                });
        !s.ok()) {
      return s;
    }
    return int64_t{response.size()};
  }

  StatusOr<std::unique_ptr<CatalogSource>> ReadBack() override {
    GrpcSourceOptions options;
    options.call_timeout_seconds = options_.call_timeout_seconds;
    return rpc::OpenGrpcSourceWith(client_.Share(options.call_timeout_seconds), schema_.name, options);
  }

  Status DropCatalog() override {
    pb::GrpcDeleteCatalogIfExistsRequest request;
    request.set_catalogname(schema_.name);
    pb::GrpcDeleteCatalogIfExistsResponse response;
    Status s = client_.Call("DeleteCatalogIfExists", "", [&](auto* context) {
      return client_.evita().DeleteCatalogIfExists(context, request, &response);
    });
    if (s.ok()) {
      StopKeeper();
      write_session_.clear();  // the catalog's sessions went with it
    }
    return s;
  }

 private:
  // evitaDB closes a session idle for its closeSessionsAfterSecondsOfInactivity
  // (60 s by default), and a load can leave the write session idle longer: a
  // slow source before the first upsert or between two, a long flush. Every
  // session_keepalive_seconds without a call on it, a thread makes one
  // (GetCatalogState, which any session may call); an upsert waits for it at
  // most, and only after such a gap.
  void StartKeeper() {
    if (options_.session_keepalive_seconds <= 0 || keeper_.joinable()) return;
    {
      MutexLock lock(session_mu_);  // no keeper yet: uncontended, taken for the analysis
      stop_keeper_ = false;
    }
    keeper_ = std::thread([this] { KeepAlive(); });
  }
  void StopKeeper() {
    {
      MutexLock lock(session_mu_);
      stop_keeper_ = true;
    }
    keeper_cv_.NotifyAll();
    if (keeper_.joinable()) keeper_.join();
  }
  void KeepAlive() {
    constexpr int kPingSeconds = 10;
    const auto interval = std::chrono::seconds(options_.session_keepalive_seconds);
    MutexLock lock(session_mu_);
    while (true) {
      const auto due = last_call_ + interval;
      while (!stop_keeper_ && keeper_cv_.WaitUntil(session_mu_, due)) {
      }
      if (stop_keeper_) break;
      if (std::chrono::steady_clock::now() < last_call_ + interval) continue;  // a call came meanwhile
      auto context = client_.Context(write_session_, kPingSeconds);
      pb::GrpcCatalogStateResponse state;
      // A failed ping is not reported here: the next upsert meets the same
      // problem and says what it is.
      (void)client_.session().GetCatalogState(context.get(), google::protobuf::Empty(), &state);
      last_call_ = std::chrono::steady_clock::now();
    }
  }

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
      auto context = client_.Context();
      const ::grpc::Status status = client_.evita().GetCatalogState(context.get(), request, &response);
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

  RemoteTargetOptions options_;
  rpc::EvitaClient client_;
  CatalogSchema schema_;
  // GrpcTypeDefects(schema_), by entity type: named when the server refuses.
  std::map<std::string, std::string> grpc_type_defects_;
  std::string write_session_;
  // Guards the calls on write_session_ and last_call_ between the loading
  // thread and the keeper.
  // (write_session_ itself changes only while no keeper runs.)
  Mutex session_mu_;
  std::chrono::steady_clock::time_point last_call_ GUARDED_BY(session_mu_);
  CondVar keeper_cv_;
  bool stop_keeper_ GUARDED_BY(session_mu_) = false;
  std::thread keeper_;
  std::function<void(int)> on_golive_progress_;
  std::string read_session_;
  pb::GrpcUpsertEntityRequest request_;
  pb::GrpcUpsertEntityResponse response_;
};

}  // namespace

StatusOr<std::unique_ptr<CatalogTarget>> MakeRemoteTarget(const std::string& address,
                                                          const RemoteTargetOptions& options) {
  auto client = rpc::EvitaClient::Connect(address, options.tls, options.call_timeout_seconds);
  if (!client.ok()) return client.status().WithContext("remote target");
  return std::unique_ptr<CatalogTarget>(new RemoteTarget(*std::move(client), options));
}

namespace rpc {
std::unique_ptr<CatalogTarget> MakeRemoteTargetOnChannel(std::shared_ptr<::grpc::Channel> channel,
                                                         const std::string& name,
                                                         const RemoteTargetOptions& options) {
  return std::make_unique<RemoteTarget>(EvitaClient(std::move(channel), name, options.call_timeout_seconds),
                                        options);
}
}  // namespace rpc

}  // namespace warmup
