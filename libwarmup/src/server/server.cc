// The engine behind evitaDB's gRPC protocol: EvitaService, EvitaSessionService
// and EvitaManagementService (the subset warmup speaks).
#include "warmup/server.h"

#include <grpcpp/grpcpp.h>
#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <thread>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaManagementAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "base/mutex.h"
#include "codec/entity_convert.h"
#include "codec/entity_interpreter.h"
#include "codec/error_details.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"
#include "common/names.h"
#include "server/backups.h"
#include "server/catalogs.h"
#include "server/client_versions.h"
#include "server/evitaql.h"
#include "server/in_process_channel.h"
#include "server/live_connections.h"
#include "server/query_page.h"
#include "server/refusal.h"
#include "server/sessions.h"
#include "server/system_endpoint.h"
#include "server/testing_aids.h"
#include "tls/tls_files.h"
#include "warmup/host_port.h"
#include "warmup/server_identity.h"
#include "warmup/version.h"

namespace warmup {
namespace {

using pb::GrpcCatalogState;
using server::Refusal;
using server::Session;

// The exception class a Refusal's message starts with, or "".
std::string_view RefusalDomain(std::string_view message) {
  const size_t colon = message.find(": ");
  const std::string_view head = message.substr(0, colon == std::string_view::npos ? 0 : colon);
  const bool is_class = head.ends_with("Exception") && std::ranges::all_of(head, [](char c) {
                          return std::isalnum(static_cast<unsigned char>(c)) != 0;
                        });
  return is_class ? head : std::string_view();
}

// A status as evitaDB's GlobalExceptionHandlerInterceptor sends it: every
// refusal of what the caller asked (a bad query, a missing catalog, a second
// session on a warming-up catalog, an entity the engine refuses) is
// INVALID_ARGUMENT with an ErrorInfo naming the exception class (evitaDB
// never sends NOT_FOUND or ALREADY_EXISTS); what fails inside the server
// keeps its code (UNAVAILABLE for an injected fault, UNAUTHENTICATED for an
// inactive session, as evitaDB's session interceptor sends).
::grpc::Status ToGrpc(const Status& s) {
  if (s.ok()) return ::grpc::Status::OK;
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kAlreadyExists:
    case StatusCode::kFailedPrecondition:
    case StatusCode::kOutOfRange: {
      std::string_view domain = RefusalDomain(s.message());
      if (domain.empty()) domain = "EvitaInvalidUsageException";
      return ::grpc::Status(
          ::grpc::StatusCode::INVALID_ARGUMENT, s.message(),
          codec::EncodeErrorDetails(::grpc::StatusCode::INVALID_ARGUMENT, s.message(), domain));
    }
    default:
      return ::grpc::Status(static_cast<::grpc::StatusCode>(s.code()), s.message());
  }
}

// What all services share. One mutex serializes every call into the engine:
// a catalog in WARM_UP has one writer, as in evitaDB. What it guards says so
// (GUARDED_BY), and clang's -Wthread-safety refuses a touch without it.
struct State {
  State(std::unique_ptr<Engine> engine, const ServerOptions& options)
      : catalogs(std::move(engine)),
        sessions(std::chrono::seconds(options.session_idle_seconds)),
        backups(options.export_dir.empty() ? options.data_dir + "-export" : options.export_dir),
        data_dir(options.data_dir),
        aids(options),
        observer(options.observer) {}

  mutable Mutex mu;
  server::CatalogRegistry catalogs GUARDED_BY(mu);
  server::SessionRegistry sessions GUARDED_BY(mu);
  server::BackupRegistry backups GUARDED_BY(mu);
  const std::string data_dir;  // a catalog's folder is data_dir/<name>
  server::TestingAids aids GUARDED_BY(mu);
  ServerObserver* const observer;                 // null when none
  std::set<std::string> upserted GUARDED_BY(mu);  // catalogs that had an upsert (observer->OnFirstUpsert)

  // The catalog's transition (GOING_ALIVE while goLive holds `mu`), read
  // without `mu`: CatalogRegistry's transitions have a lock of their own.
  std::optional<pb::GrpcCatalogState> Transition(const std::string& catalog) const NO_THREAD_SAFETY_ANALYSIS {
    return catalogs.Transition(catalog);
  }
  // The upsert delay, before the upsert takes `mu`: it reads only the
  // options, fixed at construction (TestingAids::BeforeUpsert).
  void BeforeUpsert() const NO_THREAD_SAFETY_ANALYSIS { aids.BeforeUpsert(); }

  StatusOr<std::string> OpenSession(const std::string& catalog, bool read_write, const std::string& peer)
      REQUIRES(mu) {
    auto state = catalogs.StateOf(catalog);
    if (!state) return Refusal("CatalogNotFoundException", "catalog " + catalog + " does not exist");
    return sessions.Open(catalog, read_write, *state == pb::WARMING_UP, peer,
                         std::chrono::steady_clock::now());
  }

  // The session named by the call's `sessionid` metadata.
  StatusOr<Session> SessionOf(const ::grpc::ServerContext* context) REQUIRES(mu) {
    return sessions.Use(SessionId(context), context->peer(), std::chrono::steady_clock::now());
  }

  void CloseSession(const ::grpc::ServerContext* context) REQUIRES(mu) { sessions.Close(SessionId(context)); }

  bool Delete(const std::string& name) REQUIRES(mu) {
    sessions.CloseCatalog(name);
    upserted.erase(name);
    return catalogs.Delete(name);
  }

 private:
  static std::string SessionId(const ::grpc::ServerContext* context) {
    auto it = context->client_metadata().find("sessionid");
    if (it == context->client_metadata().end()) return std::string();
    return std::string(it->second.data(), it->second.size());
  }
};

class EvitaServiceImpl final : public pb::EvitaService::Service {
 public:
  explicit EvitaServiceImpl(State* state) : state_(state) {}
  using Empty = google::protobuf::Empty;

  ::grpc::Status IsReady(::grpc::ServerContext*, const Empty*, pb::GrpcReadyResponse* out) override {
    out->set_ready(true);
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetCatalogNames(::grpc::ServerContext*, const Empty*,
                                 pb::GrpcCatalogNamesResponse* out) override {
    MutexLock lock(state_->mu);
    for (const auto& name : state_->catalogs.Names()) out->add_catalognames(name);
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetCatalogState(::grpc::ServerContext*, const pb::GrpcGetCatalogStateRequest* in,
                                 pb::GrpcGetCatalogStateResponse* out) override {
    if (auto transition = state_->Transition(in->catalogname())) {
      out->set_catalogstate(*transition);
      return ::grpc::Status::OK;
    }
    MutexLock lock(state_->mu);
    if (auto s = state_->catalogs.StateOf(in->catalogname())) out->set_catalogstate(*s);
    return ::grpc::Status::OK;
  }
  ::grpc::Status DefineCatalog(::grpc::ServerContext*, const pb::GrpcDefineCatalogRequest* in,
                               pb::GrpcDefineCatalogResponse* out) override {
    MutexLock lock(state_->mu);
    Status s = state_->catalogs.Define(in->catalogname());
    out->set_success(s.ok());
    return ToGrpc(s);
  }
  ::grpc::Status DeleteCatalogIfExists(::grpc::ServerContext*, const pb::GrpcDeleteCatalogIfExistsRequest* in,
                                       pb::GrpcDeleteCatalogIfExistsResponse* out) override {
    MutexLock lock(state_->mu);
    out->set_success(state_->Delete(in->catalogname()));
    // A dropped catalog's memory goes back to the system now, from every
    // malloc arena, so that the next load's RSS figures start where the
    // previous one's did (glibc keeps freed memory in per-thread arenas,
    // and gRPC spreads calls over threads).
    if (out->success()) malloc_trim(0);
    return ::grpc::Status::OK;
  }
  ::grpc::Status CreateReadOnlySession(::grpc::ServerContext* context, const pb::GrpcEvitaSessionRequest* in,
                                       pb::GrpcEvitaSessionResponse* out) override {
    return Open(*in, false, context->peer(), out);
  }
  ::grpc::Status CreateReadWriteSession(::grpc::ServerContext* context, const pb::GrpcEvitaSessionRequest* in,
                                        pb::GrpcEvitaSessionResponse* out) override {
    return Open(*in, true, context->peer(), out);
  }
  ::grpc::Status TerminateSession(::grpc::ServerContext*, const pb::GrpcEvitaSessionTerminationRequest* in,
                                  pb::GrpcEvitaSessionTerminationResponse* out) override {
    MutexLock lock(state_->mu);
    out->set_terminated(state_->sessions.Close(in->sessionid()));
    return ::grpc::Status::OK;
  }

 private:
  ::grpc::Status Open(const pb::GrpcEvitaSessionRequest& in, bool read_write, const std::string& peer,
                      pb::GrpcEvitaSessionResponse* out) EXCLUDES(state_->mu) {
    MutexLock lock(state_->mu);
    auto id = state_->OpenSession(in.catalogname(), read_write, peer);
    if (!id.ok()) return ToGrpc(id.status());
    out->set_sessionid(*id);
    out->set_sessiontype(read_write ? pb::READ_WRITE : pb::READ_ONLY);
    out->set_catalogstate(*state_->catalogs.StateOf(in.catalogname()));
    out->set_catalogid(server::NewUuid());
    return ::grpc::Status::OK;
  }
  State* state_;
};

class EvitaSessionServiceImpl final : public pb::EvitaSessionService::Service {
 public:
  explicit EvitaSessionServiceImpl(State* state) : state_(state) {}
  using Empty = google::protobuf::Empty;

  ::grpc::Status GetCatalogState(::grpc::ServerContext* context, const Empty*,
                                 pb::GrpcCatalogStateResponse* out) override {
    MutexLock lock(state_->mu);
    auto session = state_->SessionOf(context);
    if (!session.ok()) return ToGrpc(session.status());
    out->set_state(state_->catalogs.StateOf(session->catalog).value_or(pb::UNKNOWN_CATALOG_STATE));
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetCatalogSchema(::grpc::ServerContext* context, const pb::GrpcGetCatalogSchemaRequest*,
                                  pb::GrpcCatalogSchemaResponse* out) override {
    MutexLock lock(state_->mu);
    auto schema = SchemaOf(context);
    if (!schema.ok()) return ToGrpc(schema.status());
    codec::CatalogSchemaToProto(**schema, out->mutable_catalogschema());
    // As evitaDB answers: without a global attribute's `representative`
    // (CatalogSchemaConverter.toGrpcGlobalAttributeSchema never sets it).
    for (auto& [name, global] : *out->mutable_catalogschema()->mutable_attributes()) {
      global.set_representative(false);
    }
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetEntitySchema(::grpc::ServerContext* context, const pb::GrpcEntitySchemaRequest* in,
                                 pb::GrpcEntitySchemaResponse* out) override {
    MutexLock lock(state_->mu);
    auto schema = SchemaOf(context);
    if (!schema.ok()) return ToGrpc(schema.status());
    if (const EntitySchema* e = (*schema)->FindEntity(in->entitytype())) {
      codec::EntitySchemaToProto(*e, out->mutable_entityschema());
    }
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetAllEntityTypes(::grpc::ServerContext* context, const Empty*,
                                   pb::GrpcEntityTypesResponse* out) override {
    MutexLock lock(state_->mu);
    auto schema = SchemaOf(context);
    if (!schema.ok()) return ToGrpc(schema.status());
    for (const auto& [type, e] : (*schema)->entities) out->add_entitytypes(type);
    return ::grpc::Status::OK;
  }
  ::grpc::Status UpdateCatalogSchema(::grpc::ServerContext* context,
                                     const pb::GrpcUpdateCatalogSchemaRequest* in,
                                     pb::GrpcUpdateCatalogSchemaResponse* out) override {
    MutexLock lock(state_->mu);
    auto session = Writer(context);
    if (!session.ok()) return ToGrpc(session.status());
    std::vector<pb::GrpcLocalCatalogSchemaMutation> mutations(in->schemamutations().begin(),
                                                              in->schemamutations().end());
    if (Status s = state_->catalogs.UpdateSchema(session->catalog, mutations); !s.ok()) {
      // A schema evitaDB's converter throws on (AsEvitaDefines): answered as
      // evitaDB answers an exception it did not expect, INTERNAL with no
      // message, the reason in the log only.
      if (s.code() != StatusCode::kInternal) return ToGrpc(s);
      if (state_->observer != nullptr) {
        state_->observer->OnInternalError("UpdateCatalogSchema: " + s.message());
      }
      return ::grpc::Status(::grpc::StatusCode::INTERNAL, "");
    }
    out->set_version(1);
    return ::grpc::Status::OK;
  }
  // A zip of the catalog's folder, made within the call (evitaDB runs it as a
  // task the client polls): an ALIVE catalog only, whose files no longer
  // change, where evitaDB backs up any state. A read-write session's call,
  // as evitaDB refuses it on a read-only one (ReadOnlyException).
  ::grpc::Status FullBackupCatalog(::grpc::ServerContext* context, const Empty*,
                                   pb::GrpcFullBackupCatalogResponse* out) override {
    MutexLock lock(state_->mu);
    auto session = Writer(context);
    if (!session.ok()) return ToGrpc(session.status());
    const auto catalog_state = state_->catalogs.StateOf(session->catalog);
    if (catalog_state != pb::ALIVE) {
      return ToGrpc(
          Refusal("InvalidEvitaOperationException",
                  "warmup serve backs up an ALIVE catalog only; " + session->catalog + " is " +
                      pb::GrpcCatalogState_Name(catalog_state.value_or(pb::UNKNOWN_CATALOG_STATE))));
    }
    auto task = state_->backups.Backup(session->catalog, state_->data_dir + "/" + session->catalog);
    if (!task.ok()) return ToGrpc(task.status());
    *out->mutable_taskstatus() = *std::move(task);
    return ::grpc::Status::OK;
  }
  ::grpc::Status UpsertEntity(::grpc::ServerContext* context, const pb::GrpcUpsertEntityRequest* in,
                              pb::GrpcUpsertEntityResponse* out) override {
    state_->BeforeUpsert();
    const auto start = std::chrono::steady_clock::now();
    MutexLock lock(state_->mu);
    if (Status s = state_->aids.Call("UpsertEntity"); !s.ok()) return ToGrpc(s);
    state_->aids.SpendSimulatedUpsertTime(start);
    auto session = Writer(context);
    if (!session.ok()) return ToGrpc(session.status());
    if (!in->entitymutation().has_entityupsertmutation()) {
      return ToGrpc(UnimplementedError("only entity upserts are supported"));
    }
    const auto& upsert = in->entitymutation().entityupsertmutation();
    auto catalog = state_->catalogs.Materialize(session->catalog);
    if (!catalog.ok()) return ToGrpc(catalog.status());
    const EntitySchema* schema = (*catalog)->schema().FindEntity(upsert.entitytype());
    if (schema == nullptr) {
      return ToGrpc(Refusal("CollectionNotFoundException",
                            "catalog " + session->catalog + " has no entity type " + upsert.entitytype()));
    }
    auto entity = codec::EntityFromUpsertMutation(upsert, *schema);
    if (!entity.ok()) return ToGrpc(entity.status());
    if (state_->observer != nullptr && (*catalog)->state() == CatalogState::kWarmingUp &&
        state_->upserted.insert(session->catalog).second) {
      state_->observer->OnFirstUpsert(session->catalog);
    }
    if (Status s = (*catalog)->Upsert(*entity); !s.ok()) return ToGrpc(s);
    out->mutable_entityreference()->set_entitytype(entity->type);
    out->mutable_entityreference()->set_primarykey(entity->primary_key);
    const auto nanos =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
    context->AddTrailingMetadata("warmup-server-nanos", std::to_string(nanos.count()));
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetEntityCollectionSize(::grpc::ServerContext* context,
                                         const pb::GrpcEntityCollectionSizeRequest* in,
                                         pb::GrpcEntityCollectionSizeResponse* out) override {
    MutexLock lock(state_->mu);
    if (Status s = state_->aids.Call("GetEntityCollectionSize"); !s.ok()) return ToGrpc(s);
    auto session = state_->SessionOf(context);
    if (!session.ok()) return ToGrpc(session.status());
    auto catalog = state_->catalogs.Materialize(session->catalog);
    if (!catalog.ok()) return ToGrpc(catalog.status());
    auto count = (*catalog)->Count(in->entitytype());
    if (!count.ok()) return ToGrpc(count.status());
    out->set_size(static_cast<int32_t>(*count));
    return ::grpc::Status::OK;
  }
  ::grpc::Status Query(::grpc::ServerContext* context, const pb::GrpcQueryRequest* in,
                       pb::GrpcQueryResponse* out) override {
    MutexLock lock(state_->mu);
    if (Status s = state_->aids.Call("Query"); !s.ok()) return ToGrpc(s);
    auto session = state_->SessionOf(context);
    if (!session.ok()) return ToGrpc(session.status());
    std::vector<pb::GrpcQueryParam> parameters(in->positionalqueryparams().begin(),
                                               in->positionalqueryparams().end());
    auto query = server::ParseEntityQuery(in->query(), parameters);
    if (!query.ok()) return ToGrpc(query.status());
    auto catalog = state_->catalogs.Materialize(session->catalog);
    if (!catalog.ok()) return ToGrpc(catalog.status());
    // The scopes asked for, LIVE alone when none (evitaDB's default): each
    // scope's global index holds its entities; an entity is in one scope.
    std::vector<int32_t> keys;
    for (const Scope scope : query->scopes.empty() ? std::vector<Scope>{Scope::kLive} : query->scopes) {
      IndexScope global;
      global.scope = scope;
      auto members = (*catalog)->Members(query->collection, global);
      if (!members.ok()) return ToGrpc(members.status());
      keys.insert(keys.end(), members->begin(), members->end());
    }
    std::sort(keys.begin(), keys.end());
    if (query->primary_keys) {
      std::vector<int32_t> wanted = *query->primary_keys;
      std::sort(wanted.begin(), wanted.end());
      std::vector<int32_t> both;
      std::set_intersection(keys.begin(), keys.end(), wanted.begin(), wanted.end(), std::back_inserter(both));
      keys = std::move(both);
    }
    const int64_t total = static_cast<int64_t>(keys.size());
    const int64_t size = query->page_size;
    const server::QueryPage page = server::PageOf(total, size, query->page_number);
    auto* chunk = out->mutable_recordpage();
    for (int64_t i = page.begin; i < page.end; ++i) {
      const int32_t pk = keys[static_cast<size_t>(i)];
      if (query->fetch) {
        auto entity = (*catalog)->Get(query->collection, pk);
        if (!entity.ok()) return ToGrpc(entity.status());
        codec::EntityToProto(**entity, chunk->add_sealedentities());
      } else {
        auto* reference = chunk->add_entityreferences();
        reference->set_entitytype(query->collection);
        reference->set_primarykey(pk);
      }
    }
    chunk->mutable_paginatedlist()->set_pagesize(static_cast<int32_t>(size));
    chunk->mutable_paginatedlist()->set_pagenumber(static_cast<int32_t>(page.number));
    chunk->mutable_paginatedlist()->set_lastpagenumber(static_cast<int32_t>(page.last));
    chunk->set_totalrecordcount(static_cast<int32_t>(total));
    chunk->set_isfirst(page.number == 1);
    chunk->set_islast(page.number == page.last);
    chunk->set_hasprevious(page.number > 1);
    chunk->set_hasnext(page.number < page.last);
    chunk->set_issinglepage(page.last == 1);
    chunk->set_isempty(total == 0);
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetEntity(::grpc::ServerContext* context, const pb::GrpcEntityRequest* in,
                           pb::GrpcEntityResponse* out) override {
    MutexLock lock(state_->mu);
    if (Status s = state_->aids.Call("GetEntity"); !s.ok()) return ToGrpc(s);
    auto session = state_->SessionOf(context);
    if (!session.ok()) return ToGrpc(session.status());
    auto catalog = state_->catalogs.Materialize(session->catalog);
    if (!catalog.ok()) return ToGrpc(catalog.status());
    auto entity = (*catalog)->Get(in->entitytype(), in->primarykey());
    if (!entity.ok()) return ToGrpc(entity.status());
    if (entity->has_value()) codec::EntityToProto(**entity, out->mutable_entity());
    return ::grpc::Status::OK;
  }
  ::grpc::Status GoLiveAndClose(::grpc::ServerContext* context, const Empty*,
                                pb::GrpcGoLiveAndCloseResponse* out) override {
    MutexLock lock(state_->mu);
    if (Status s = GoLive(context); !s.ok()) return ToGrpc(s);
    out->set_success(true);
    out->set_catalogversion(1);
    out->set_catalogschemaversion(1);
    return ::grpc::Status::OK;
  }
  ::grpc::Status GoLiveAndCloseWithProgress(
      ::grpc::ServerContext* context, const Empty*,
      ::grpc::ServerWriter<pb::GrpcGoLiveAndCloseWithProgressResponse>* writer) override {
    MutexLock lock(state_->mu);
    if (Status s = GoLive(context); !s.ok()) return ToGrpc(s);
    pb::GrpcGoLiveAndCloseWithProgressResponse done;
    done.set_progressinpercent(100);
    done.set_catalogversion(1);
    done.set_catalogschemaversion(1);
    writer->Write(done);
    return ::grpc::Status::OK;
  }
  ::grpc::Status Close(::grpc::ServerContext* context, const pb::GrpcCloseRequest*,
                       pb::GrpcCloseResponse*) override {
    MutexLock lock(state_->mu);
    state_->CloseSession(context);
    return ::grpc::Status::OK;
  }

 private:
  StatusOr<const CatalogSchema*> SchemaOf(const ::grpc::ServerContext* context) REQUIRES(state_->mu) {
    auto session = state_->SessionOf(context);
    if (!session.ok()) return session.status();
    return state_->catalogs.Schema(session->catalog);
  }
  StatusOr<Session> Writer(const ::grpc::ServerContext* context) REQUIRES(state_->mu) {
    auto session = state_->SessionOf(context);
    if (session.ok() && !session->read_write) {
      return Refusal("ReadOnlyException", "session of catalog " + session->catalog + " is read-only");
    }
    return session;
  }
  Status GoLive(::grpc::ServerContext* context) REQUIRES(state_->mu) {
    if (Status s = state_->aids.Call("GoLiveAndClose"); !s.ok()) return s;
    auto session = Writer(context);
    if (!session.ok()) return session.status();
    auto catalog = state_->catalogs.Materialize(session->catalog);
    if (!catalog.ok()) return catalog.status();
    state_->catalogs.SetTransition(session->catalog, pb::GOING_ALIVE);
    state_->aids.BeforeGoLive();
    if (state_->observer != nullptr) state_->observer->OnGoLiveStart(session->catalog);
    Status live = (*catalog)->GoLive();
    if (state_->observer != nullptr) state_->observer->OnGoLiveEnd(session->catalog, live.ok());
    state_->upserted.erase(session->catalog);
    state_->catalogs.SetTransition(session->catalog, std::nullopt);
    if (!live.ok()) return live;
    state_->CloseSession(context);
    return OkStatus();
  }
  State* state_;
};

class ManagementServiceImpl final : public pb::EvitaManagementService::Service {
 public:
  explicit ManagementServiceImpl(State* state) : state_(state) {}
  // An unknown task is answered INTERNAL, as evitaDB answers it (it sends no
  // response at all, which its gRPC layer reports so).
  ::grpc::Status GetTaskStatus(::grpc::ServerContext*, const pb::GrpcTaskStatusRequest* in,
                               pb::GrpcTaskStatusResponse* out) override {
    MutexLock lock(state_->mu);
    auto task = state_->backups.Task(in->taskid());
    if (!task) return ::grpc::Status(::grpc::StatusCode::INTERNAL, "no such task");
    *out->mutable_taskstatus() = *std::move(task);
    return ::grpc::Status::OK;
  }
  ::grpc::Status FetchFile(::grpc::ServerContext*, const pb::GrpcFetchFileRequest* in,
                           ::grpc::ServerWriter<pb::GrpcFetchFileResponse>* writer) override {
    std::optional<std::string> path;
    {
      MutexLock lock(state_->mu);
      path = state_->backups.File(in->fileid());
    }
    if (!path) return ToGrpc(Refusal("FileForFetchNotFoundException", "no such file"));
    std::ifstream file(*path, std::ios::binary);
    std::error_code ec;
    const auto size = static_cast<int64_t>(std::filesystem::file_size(*path, ec));
    if (!file || ec) return ::grpc::Status(::grpc::StatusCode::UNAVAILABLE, "cannot read " + *path);
    std::string chunk(1 << 20, '\0');
    while (file) {
      file.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
      if (file.gcount() == 0) break;
      pb::GrpcFetchFileResponse response;
      response.set_filecontents(chunk.data(), static_cast<size_t>(file.gcount()));
      response.set_totalsizeinbytes(size);
      if (!writer->Write(response)) return ::grpc::Status(::grpc::StatusCode::CANCELLED, "the client went");
    }
    if (file.bad()) return ::grpc::Status(::grpc::StatusCode::UNAVAILABLE, "cannot read " + *path);
    return ::grpc::Status::OK;
  }
  ::grpc::Status ServerStatus(::grpc::ServerContext*, const google::protobuf::Empty*,
                              pb::GrpcEvitaServerStatusResponse* out) override {
    out->set_version(kServeVersionPrefix + Version());
    out->set_readiness(pb::API_READY);
    return ::grpc::Status::OK;
  }

 private:
  State* state_;
};

class ServerImpl : public Server {
 public:
  ServerImpl(std::unique_ptr<Engine> engine, const ServerOptions& options)
      : leftovers_(engine->leftovers()),
        state_(std::move(engine), options),
        evita_(&state_),
        session_(&state_),
        management_(&state_) {}

  Status Listen(const std::string& address, const std::shared_ptr<::grpc::ServerCredentials>& credentials) {
    ::grpc::ServerBuilder builder;
    // gRPC shares a port with any other process that asks (SO_REUSEPORT), so
    // a second server would take half of a load's calls: a port in use is an error.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    builder.AddListeningPort(address, credentials, &port_);
    builder.RegisterService(&evita_);
    builder.RegisterService(&session_);
    builder.RegisterService(&management_);
    // evitaDB caps a request at 2 MB (api.maxEntitySizeInBytes); larger ones fail with RESOURCE_EXHAUSTED.
    builder.SetMaxReceiveMessageSize(2 * 1024 * 1024);
    std::vector<std::unique_ptr<::grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
    interceptors.push_back(std::make_unique<server::ClientVersionInterceptorFactory>(&client_versions_));
    builder.experimental().SetInterceptorCreators(std::move(interceptors));
    server_ = builder.BuildAndStart();
    if (!server_ || port_ == 0) {
      server_.reset();
      return UnavailableError("cannot listen on " + address +
                              ": the port is in use, or the host is not an address of this machine");
    }
    return OkStatus();
  }
  int port() const override { return port_; }
  int system_port() const override { return system_ ? system_->port() : 0; }
  void ServeSystemApi(std::unique_ptr<SystemEndpoint> endpoint) { system_ = std::move(endpoint); }
  std::shared_ptr<::grpc::Channel> InProcessChannel() {
    ::grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(-1);
    return server_->InProcessChannel(args);
  }
  // Every second, closes the sessions whose client has been disconnected
  // for `grace` (see SessionRegistry::CloseOrphans); stops with Shutdown.
  void StartOrphanReaper(std::chrono::seconds grace) {
    reaper_ = std::thread([this, grace] {
      MutexLock wait_lock(reaper_mu_);
      while (true) {
        const auto next = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        while (!stopping_ && reaper_cv_.WaitUntil(reaper_mu_, next)) {
        }
        if (stopping_) break;
        auto live = server::LiveClientPeers();
        if (!live.ok()) continue;  // no answer this time: close nothing
        MutexLock lock(state_.mu);
        for (const std::string& closed :
             state_.sessions.CloseOrphans(*live, grace, std::chrono::steady_clock::now())) {
          if (state_.observer != nullptr) state_.observer->OnOrphanedSessionClosed(closed);
        }
      }
    });
  }
  void Shutdown() override {
    std::call_once(shutdown_once_, [this] {
      {
        MutexLock lock(reaper_mu_);
        stopping_ = true;
      }
      reaper_cv_.NotifyAll();
      if (reaper_.joinable()) reaper_.join();
      if (server_) server_->Shutdown();  // null when Listen failed
    });
  }
  void Wait() override {
    if (server_) server_->Wait();
  }
  Status Flush() override {
    MutexLock lock(state_.mu);
    return state_.catalogs.Flush();
  }
  std::unique_ptr<Engine> ReleaseEngine() override {
    MutexLock lock(state_.mu);
    return state_.catalogs.ReleaseEngine();
  }
  std::vector<std::string> leftovers() const override { return leftovers_; }
  std::map<std::string, std::set<std::string>> ClientVersions() const override {
    return client_versions_.Get();
  }
  int OpenSessions() const override {
    MutexLock lock(state_.mu);
    return state_.sessions.Count();
  }
  ~ServerImpl() override { Shutdown(); }

 private:
  server::ClientVersionLog client_versions_;  // outlives server_, whose interceptors write it
  std::vector<std::string> leftovers_;
  State state_;
  EvitaServiceImpl evita_;
  EvitaSessionServiceImpl session_;
  ManagementServiceImpl management_;
  std::unique_ptr<::grpc::Server> server_;
  int port_ = 0;
  std::unique_ptr<SystemEndpoint> system_;  // null unless ServerOptions::system_listen
  std::thread reaper_;                      // not started when orphan closing is off
  Mutex reaper_mu_;
  CondVar reaper_cv_;
  bool stopping_ GUARDED_BY(reaper_mu_) = false;
  std::once_flag shutdown_once_;
};

}  // namespace

namespace server {
// Every Server is a ServerImpl: Server::Start makes no other.
std::shared_ptr<::grpc::Channel> InProcessChannel(Server& server) {
  return static_cast<ServerImpl&>(server).InProcessChannel();
}
}  // namespace server

StatusOr<std::unique_ptr<Server>> Server::Start(const ServerOptions& options) {
  if (Status s = server::CheckFaults(options.faults); !s.ok()) return s;
  if (Status s = CheckHostPort(options.listen, AddressUse::kListen); !s.ok()) return s;
  auto pem = tls::LoadServerPem(options.tls);
  if (!pem.ok()) return pem.status();
  if (!options.system_listen.empty() && pem->cert_chain.empty()) {
    return InvalidArgumentError("a system endpoint (" + options.system_listen +
                                ") serves the server's certificate: it needs TLS (" + options.tls.names.cert +
                                ")");
  }
  std::shared_ptr<::grpc::ServerCredentials> credentials = ::grpc::InsecureServerCredentials();
  if (!pem->cert_chain.empty()) {
    ::grpc::SslServerCredentialsOptions ssl(pem->client_ca.empty()
                                                ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                                : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    ssl.pem_root_certs = pem->client_ca;
    ssl.pem_key_cert_pairs.push_back({pem->private_key, pem->cert_chain});
    credentials = ::grpc::SslServerCredentials(ssl);
  }
  auto engine = Engine::Open(options.data_dir, options.engine);
  if (!engine.ok()) return engine.status();
  auto server = std::make_unique<ServerImpl>(std::move(engine).value(), options);
  if (Status s = server->Listen(options.listen, credentials); !s.ok()) return s;
  if (options.orphaned_session_grace_seconds > 0) {
    server->StartOrphanReaper(std::chrono::seconds(options.orphaned_session_grace_seconds));
  }
  if (!options.system_listen.empty()) {
    auto endpoint = SystemEndpoint::Start(options.system_listen, pem->cert_chain);
    if (!endpoint.ok()) return endpoint.status();
    server->ServeSystemApi(*std::move(endpoint));
  }
  return std::unique_ptr<Server>(std::move(server));
}

}  // namespace warmup
