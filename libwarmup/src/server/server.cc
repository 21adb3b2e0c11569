// The engine behind evitaDB's gRPC protocol: EvitaService, EvitaSessionService
// and EvitaManagementService (the subset warmup speaks).
#include "warmup/server.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/server_interceptor.h>
#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iterator>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string_view>
#include <thread>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaManagementAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "codec/entity_convert.h"
#include "codec/entity_interpreter.h"
#include "codec/error_details.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"
#include "codec/schema_interpreter.h"
#include "common/names.h"
#include "server/evitaql.h"
#include "server/in_process_channel.h"
#include "server/live_connections.h"
#include "server/system_endpoint.h"
#include "tls/tls_files.h"
#include "warmup/host_port.h"
#include "warmup/version.h"

namespace warmup {
namespace {

using pb::GrpcCatalogState;

// A refusal of the caller's request, worded as evitaDB's server words it:
// the exception class it would throw (`domain`, e.g.
// "CatalogNotFoundException") leads the message, and ToGrpc sends it in the
// error's details.
Status Refusal(std::string_view domain, const std::string& message) {
  return InvalidArgumentError(std::string(domain) + ": " + message);
}

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

struct Session {
  std::string catalog;
  bool read_write = false;
  std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();
  // The connection it was last used on (ServerContext::peer()), and since
  // when that connection has been gone.
  std::string peer;
  std::optional<std::chrono::steady_clock::time_point> peer_gone_since;
};

// What all services share. One mutex serializes every call into the engine:
// a catalog in WARM_UP has one writer, as in evitaDB.
class State {
 public:
  explicit State(std::unique_ptr<Engine> engine) : engine_(std::move(engine)) {}

  mutable std::mutex mu;

  // Catalogs in transition (GOING_ALIVE), readable without `mu`, which the
  // transition itself holds for its whole duration.
  std::optional<GrpcCatalogState> Transition(const std::string& name) {
    std::lock_guard lock(transitions_mu_);
    auto it = transitions_.find(name);
    return it == transitions_.end() ? std::nullopt : std::optional<GrpcCatalogState>(it->second);
  }
  void SetTransition(const std::string& name, std::optional<GrpcCatalogState> state) {
    std::lock_guard lock(transitions_mu_);
    if (state) {
      transitions_[name] = *state;
    } else {
      transitions_.erase(name);
    }
  }
  int golive_delay_ms = 0;
  int upsert_delay_ms = 0;
  int inject_upsert_delay_us = 0;
  int session_idle_seconds = 0;
  ServerObserver* observer = nullptr;
  std::set<std::string> upserted;         // catalogs that had an upsert (observer->OnFirstUpsert)
  std::map<std::string, int64_t> faults;  // method -> calls that still succeed

  // Counts one call of `method`; UNAVAILABLE once its injected fault is due.
  Status Call(const std::string& method) {
    auto it = faults.find(method);
    if (it == faults.end()) return OkStatus();
    if (it->second > 0) {
      --it->second;
      return OkStatus();
    }
    return UnavailableError("injected fault: " + method);
  }

  bool Exists(const std::string& name) const {
    return pending_.contains(name) || engine_->GetCatalog(name).ok();
  }

  std::optional<GrpcCatalogState> StateOf(const std::string& name) const {
    if (pending_.contains(name)) return pb::WARMING_UP;
    auto catalog = engine_->GetCatalog(name);
    if (!catalog.ok()) return std::nullopt;
    return (*catalog)->state() == CatalogState::kAlive ? pb::ALIVE : pb::WARMING_UP;
  }

  std::vector<std::string> Names() const {
    std::vector<std::string> names = engine_->CatalogNames();
    for (const auto& [name, schema] : pending_) names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
  }

  Status Define(const std::string& name) {
    if (Exists(name)) return OkStatus();  // evitaDB reuses an existing catalog
    // The name is checked now, not at the first upsert that makes the
    // catalog: a foreign directory in the way is the definition's failure.
    if (Status s = engine_->CheckNewCatalogName(name); !s.ok()) return s;
    CatalogSchema schema;
    schema.name = name;
    schema.evolution_modes = {CatalogEvolutionMode::kAddingEntityTypes};
    pending_.emplace(name, std::move(schema));
    return OkStatus();
  }

  bool Delete(const std::string& name) {
    std::erase_if(sessions_, [&](const auto& s) { return s.second.catalog == name; });
    upserted.erase(name);
    if (pending_.erase(name) > 0) return true;
    return engine_->DeleteCatalog(name).ok();
  }

  // The schema of a catalog, pending or not.
  StatusOr<const CatalogSchema*> Schema(const std::string& name) const {
    auto pending = pending_.find(name);
    if (pending != pending_.end()) return &pending->second;
    auto catalog = engine_->GetCatalog(name);
    if (!catalog.ok()) return catalog.status();
    return &(*catalog)->schema();
  }

  Status UpdateSchema(const std::string& name,
                      const std::vector<pb::GrpcLocalCatalogSchemaMutation>& mutations) {
    auto pending = pending_.find(name);
    if (pending == pending_.end()) {
      return UnimplementedError("catalog " + name +
                                ": schema changes after the first upsert are not supported");
    }
    CatalogSchema updated = pending->second;
    if (Status s = codec::ApplyCatalogSchemaMutations(mutations, &updated); !s.ok()) return s;
    pending->second = std::move(updated);
    return OkStatus();
  }

  // The engine catalog, created from the pending schema at first use.
  StatusOr<Catalog*> Materialize(const std::string& name) {
    auto pending = pending_.find(name);
    if (pending == pending_.end()) return engine_->GetCatalog(name);
    auto catalog = engine_->CreateCatalog(pending->second);
    if (!catalog.ok()) return catalog.status();
    pending_.erase(pending);
    return catalog;
  }

  StatusOr<std::string> OpenSession(const std::string& catalog, bool read_write, const std::string& peer) {
    auto state = StateOf(catalog);
    if (!state) return Refusal("CatalogNotFoundException", "catalog " + catalog + " does not exist");
    if (*state == pb::WARMING_UP) {
      for (const auto& [id, s] : sessions_) {
        if (s.catalog == catalog) {
          return Refusal(
              "ConcurrentInitializationException",
              "catalog " + catalog + " is warming up and session " + id + " is already open on it");
        }
      }
    }
    std::string id = NewUuid();
    sessions_[id] = {catalog, read_write, std::chrono::steady_clock::now(), peer, std::nullopt};
    return id;
  }

  // The session named by the call's `sessionid` metadata.
  StatusOr<Session> SessionOf(const ::grpc::ServerContext* context) {
    std::string id;
    auto it = context->client_metadata().find("sessionid");
    if (it != context->client_metadata().end()) id.assign(it->second.data(), it->second.size());
    auto session = sessions_.find(id);
    const auto now = std::chrono::steady_clock::now();
    if (session != sessions_.end() && session_idle_seconds > 0 &&
        now - session->second.last_used > std::chrono::seconds(session_idle_seconds)) {
      sessions_.erase(session);  // closed for inactivity, as evitaDB does
      session = sessions_.end();
    }
    if (session == sessions_.end()) {
      return Status(StatusCode::kUnauthenticated,
                    "Your session (session id: " + id + ") is either not set or is not active.");
    }
    session->second.last_used = now;
    session->second.peer = context->peer();  // a client may carry its session to a new connection
    session->second.peer_gone_since.reset();
    return session->second;
  }

  void CloseSession(const ::grpc::ServerContext* context) {
    auto it = context->client_metadata().find("sessionid");
    if (it != context->client_metadata().end()) {
      sessions_.erase(std::string(it->second.data(), it->second.size()));
    }
  }
  bool Terminate(const std::string& id) { return sessions_.erase(id) > 0; }

  // Closes the sessions whose connection has been missing from `live` for
  // `grace` or longer (a client killed, or gone without closing them), so
  // that a warming-up catalog is not held by a writer that will never come
  // back. Returns what was closed, described.
  std::vector<std::string> CloseOrphans(const std::set<std::string>& live, std::chrono::seconds grace) {
    const auto now = std::chrono::steady_clock::now();
    std::vector<std::string> closed;
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      Session& session = it->second;
      if (!server::IsTrackablePeer(session.peer) || live.contains(session.peer)) {
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
  int SessionCount() const { return static_cast<int>(sessions_.size()); }

 private:
  std::unique_ptr<Engine> engine_;
  std::map<std::string, CatalogSchema> pending_;
  std::map<std::string, Session> sessions_;
  std::mutex transitions_mu_;
  std::map<std::string, GrpcCatalogState> transitions_;
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
    std::lock_guard lock(state_->mu);
    for (const auto& name : state_->Names()) out->add_catalognames(name);
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetCatalogState(::grpc::ServerContext*, const pb::GrpcGetCatalogStateRequest* in,
                                 pb::GrpcGetCatalogStateResponse* out) override {
    if (auto transition = state_->Transition(in->catalogname())) {
      out->set_catalogstate(*transition);
      return ::grpc::Status::OK;
    }
    std::lock_guard lock(state_->mu);
    if (auto s = state_->StateOf(in->catalogname())) out->set_catalogstate(*s);
    return ::grpc::Status::OK;
  }
  ::grpc::Status DefineCatalog(::grpc::ServerContext*, const pb::GrpcDefineCatalogRequest* in,
                               pb::GrpcDefineCatalogResponse* out) override {
    std::lock_guard lock(state_->mu);
    Status s = state_->Define(in->catalogname());
    out->set_success(s.ok());
    return ToGrpc(s);
  }
  ::grpc::Status DeleteCatalogIfExists(::grpc::ServerContext*, const pb::GrpcDeleteCatalogIfExistsRequest* in,
                                       pb::GrpcDeleteCatalogIfExistsResponse* out) override {
    std::lock_guard lock(state_->mu);
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
    std::lock_guard lock(state_->mu);
    out->set_terminated(state_->Terminate(in->sessionid()));
    return ::grpc::Status::OK;
  }

 private:
  ::grpc::Status Open(const pb::GrpcEvitaSessionRequest& in, bool read_write, const std::string& peer,
                      pb::GrpcEvitaSessionResponse* out) {
    std::lock_guard lock(state_->mu);
    auto id = state_->OpenSession(in.catalogname(), read_write, peer);
    if (!id.ok()) return ToGrpc(id.status());
    out->set_sessionid(*id);
    out->set_sessiontype(read_write ? pb::READ_WRITE : pb::READ_ONLY);
    out->set_catalogstate(*state_->StateOf(in.catalogname()));
    out->set_catalogid(NewUuid());
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
    std::lock_guard lock(state_->mu);
    auto session = state_->SessionOf(context);
    if (!session.ok()) return ToGrpc(session.status());
    out->set_state(state_->StateOf(session->catalog).value_or(pb::UNKNOWN_CATALOG_STATE));
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetCatalogSchema(::grpc::ServerContext* context, const pb::GrpcGetCatalogSchemaRequest*,
                                  pb::GrpcCatalogSchemaResponse* out) override {
    std::lock_guard lock(state_->mu);
    auto schema = SchemaOf(context);
    if (!schema.ok()) return ToGrpc(schema.status());
    codec::CatalogSchemaToProto(**schema, out->mutable_catalogschema());
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetEntitySchema(::grpc::ServerContext* context, const pb::GrpcEntitySchemaRequest* in,
                                 pb::GrpcEntitySchemaResponse* out) override {
    std::lock_guard lock(state_->mu);
    auto schema = SchemaOf(context);
    if (!schema.ok()) return ToGrpc(schema.status());
    if (const EntitySchema* e = (*schema)->FindEntity(in->entitytype())) {
      codec::EntitySchemaToProto(*e, out->mutable_entityschema());
    }
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetAllEntityTypes(::grpc::ServerContext* context, const Empty*,
                                   pb::GrpcEntityTypesResponse* out) override {
    std::lock_guard lock(state_->mu);
    auto schema = SchemaOf(context);
    if (!schema.ok()) return ToGrpc(schema.status());
    for (const auto& [type, e] : (*schema)->entities) out->add_entitytypes(type);
    return ::grpc::Status::OK;
  }
  ::grpc::Status UpdateCatalogSchema(::grpc::ServerContext* context,
                                     const pb::GrpcUpdateCatalogSchemaRequest* in,
                                     pb::GrpcUpdateCatalogSchemaResponse* out) override {
    std::lock_guard lock(state_->mu);
    auto session = Writer(context);
    if (!session.ok()) return ToGrpc(session.status());
    std::vector<pb::GrpcLocalCatalogSchemaMutation> mutations(in->schemamutations().begin(),
                                                              in->schemamutations().end());
    if (Status s = state_->UpdateSchema(session->catalog, mutations); !s.ok()) return ToGrpc(s);
    out->set_version(1);
    return ::grpc::Status::OK;
  }
  ::grpc::Status UpsertEntity(::grpc::ServerContext* context, const pb::GrpcUpsertEntityRequest* in,
                              pb::GrpcUpsertEntityResponse* out) override {
    if (state_->upsert_delay_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(state_->upsert_delay_ms));
    }
    const auto start = std::chrono::steady_clock::now();
    std::lock_guard lock(state_->mu);
    if (Status s = state_->Call("UpsertEntity"); !s.ok()) return ToGrpc(s);
    if (state_->inject_upsert_delay_us > 0) {
      const auto until = start + std::chrono::microseconds(state_->inject_upsert_delay_us);
      while (std::chrono::steady_clock::now() < until) {
      }
    }
    auto session = Writer(context);
    if (!session.ok()) return ToGrpc(session.status());
    if (!in->entitymutation().has_entityupsertmutation()) {
      return ToGrpc(UnimplementedError("only entity upserts are supported"));
    }
    const auto& upsert = in->entitymutation().entityupsertmutation();
    auto catalog = state_->Materialize(session->catalog);
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
    std::lock_guard lock(state_->mu);
    if (Status s = state_->Call("GetEntityCollectionSize"); !s.ok()) return ToGrpc(s);
    auto session = state_->SessionOf(context);
    if (!session.ok()) return ToGrpc(session.status());
    auto catalog = state_->Materialize(session->catalog);
    if (!catalog.ok()) return ToGrpc(catalog.status());
    auto count = (*catalog)->Count(in->entitytype());
    if (!count.ok()) return ToGrpc(count.status());
    out->set_size(static_cast<int32_t>(*count));
    return ::grpc::Status::OK;
  }
  ::grpc::Status Query(::grpc::ServerContext* context, const pb::GrpcQueryRequest* in,
                       pb::GrpcQueryResponse* out) override {
    std::lock_guard lock(state_->mu);
    if (Status s = state_->Call("Query"); !s.ok()) return ToGrpc(s);
    auto session = state_->SessionOf(context);
    if (!session.ok()) return ToGrpc(session.status());
    std::vector<pb::GrpcQueryParam> parameters(in->positionalqueryparams().begin(),
                                               in->positionalqueryparams().end());
    auto query = server::ParseEntityQuery(in->query(), parameters);
    if (!query.ok()) return ToGrpc(query.status());
    auto catalog = state_->Materialize(session->catalog);
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
    const int64_t last_page = size > 0 ? std::max<int64_t>(1, (total + size - 1) / size) : 1;
    // Like evitaDB, a page beyond the last one answers with the first.
    const int64_t page = query->page_number > last_page ? 1 : query->page_number;
    auto* chunk = out->mutable_recordpage();
    const int64_t begin = (page - 1) * size;
    for (int64_t i = begin; i < std::min(total, begin + size); ++i) {
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
    chunk->mutable_paginatedlist()->set_pagenumber(static_cast<int32_t>(page));
    chunk->mutable_paginatedlist()->set_lastpagenumber(static_cast<int32_t>(last_page));
    chunk->set_totalrecordcount(static_cast<int32_t>(total));
    chunk->set_isfirst(page == 1);
    chunk->set_islast(page == last_page);
    chunk->set_hasprevious(page > 1);
    chunk->set_hasnext(page < last_page);
    chunk->set_issinglepage(last_page == 1);
    chunk->set_isempty(total == 0);
    return ::grpc::Status::OK;
  }
  ::grpc::Status GetEntity(::grpc::ServerContext* context, const pb::GrpcEntityRequest* in,
                           pb::GrpcEntityResponse* out) override {
    std::lock_guard lock(state_->mu);
    if (Status s = state_->Call("GetEntity"); !s.ok()) return ToGrpc(s);
    auto session = state_->SessionOf(context);
    if (!session.ok()) return ToGrpc(session.status());
    auto catalog = state_->Materialize(session->catalog);
    if (!catalog.ok()) return ToGrpc(catalog.status());
    auto entity = (*catalog)->Get(in->entitytype(), in->primarykey());
    if (!entity.ok()) return ToGrpc(entity.status());
    if (entity->has_value()) codec::EntityToProto(**entity, out->mutable_entity());
    return ::grpc::Status::OK;
  }
  ::grpc::Status GoLiveAndClose(::grpc::ServerContext* context, const Empty*,
                                pb::GrpcGoLiveAndCloseResponse* out) override {
    std::lock_guard lock(state_->mu);
    if (Status s = GoLive(context); !s.ok()) return ToGrpc(s);
    out->set_success(true);
    out->set_catalogversion(1);
    out->set_catalogschemaversion(1);
    return ::grpc::Status::OK;
  }
  ::grpc::Status GoLiveAndCloseWithProgress(
      ::grpc::ServerContext* context, const Empty*,
      ::grpc::ServerWriter<pb::GrpcGoLiveAndCloseWithProgressResponse>* writer) override {
    std::lock_guard lock(state_->mu);
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
    std::lock_guard lock(state_->mu);
    state_->CloseSession(context);
    return ::grpc::Status::OK;
  }

 private:
  StatusOr<const CatalogSchema*> SchemaOf(const ::grpc::ServerContext* context) {
    auto session = state_->SessionOf(context);
    if (!session.ok()) return session.status();
    return state_->Schema(session->catalog);
  }
  StatusOr<Session> Writer(const ::grpc::ServerContext* context) {
    auto session = state_->SessionOf(context);
    if (session.ok() && !session->read_write) {
      return Refusal("ReadOnlyException", "session of catalog " + session->catalog + " is read-only");
    }
    return session;
  }
  Status GoLive(::grpc::ServerContext* context) {
    if (Status s = state_->Call("GoLiveAndClose"); !s.ok()) return s;
    auto session = Writer(context);
    if (!session.ok()) return session.status();
    auto catalog = state_->Materialize(session->catalog);
    if (!catalog.ok()) return catalog.status();
    state_->SetTransition(session->catalog, pb::GOING_ALIVE);
    if (state_->golive_delay_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(state_->golive_delay_ms));
    }
    if (state_->observer != nullptr) state_->observer->OnGoLiveStart(session->catalog);
    Status live = (*catalog)->GoLive();
    if (state_->observer != nullptr) state_->observer->OnGoLiveEnd(session->catalog, live.ok());
    state_->upserted.erase(session->catalog);
    state_->SetTransition(session->catalog, std::nullopt);
    if (!live.ok()) return live;
    state_->CloseSession(context);
    return OkStatus();
  }
  State* state_;
};

class ManagementServiceImpl final : public pb::EvitaManagementService::Service {
 public:
  ::grpc::Status ServerStatus(::grpc::ServerContext*, const google::protobuf::Empty*,
                              pb::GrpcEvitaServerStatusResponse* out) override {
    out->set_version("warmup " + Version());
    out->set_readiness(pb::API_READY);
    return ::grpc::Status::OK;
  }
};

// Which clientversion each method's calls carry, read off every call's
// initial metadata before any service sees it.
class ClientVersionLog {
 public:
  void Record(const std::string& full_method, std::string version) {
    const std::string method = full_method.substr(full_method.rfind('/') + 1);
    std::lock_guard lock(mutex_);
    versions_[method].insert(std::move(version));
  }
  std::map<std::string, std::set<std::string>> Get() const {
    std::lock_guard lock(mutex_);
    return versions_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::set<std::string>> versions_;
};

class ClientVersionInterceptor : public ::grpc::experimental::Interceptor {
 public:
  ClientVersionInterceptor(ClientVersionLog* log, std::string method)
      : log_(log), method_(std::move(method)) {}
  void Intercept(::grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            ::grpc::experimental::InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      std::string version;
      auto* metadata = methods->GetRecvInitialMetadata();
      if (auto it = metadata->find("clientversion"); it != metadata->end()) {
        version.assign(it->second.data(), it->second.size());
      }
      log_->Record(method_, std::move(version));
    }
    methods->Proceed();
  }

 private:
  ClientVersionLog* log_;
  std::string method_;
};

class ClientVersionInterceptorFactory : public ::grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit ClientVersionInterceptorFactory(ClientVersionLog* log) : log_(log) {}
  ::grpc::experimental::Interceptor* CreateServerInterceptor(
      ::grpc::experimental::ServerRpcInfo* info) override {
    return new ClientVersionInterceptor(log_, info->method());
  }

 private:
  ClientVersionLog* log_;
};

class ServerImpl : public Server {
 public:
  explicit ServerImpl(std::unique_ptr<Engine> engine)
      : leftovers_(engine->leftovers()), state_(std::move(engine)), evita_(&state_), session_(&state_) {}

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
    interceptors.push_back(std::make_unique<ClientVersionInterceptorFactory>(&client_versions_));
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
  // for `grace` (see State::CloseOrphans); stops with Shutdown.
  void StartOrphanReaper(std::chrono::seconds grace) {
    reaper_ = std::thread([this, grace] {
      std::unique_lock wait_lock(reaper_mu_);
      while (!reaper_cv_.wait_for(wait_lock, std::chrono::seconds(1), [this] { return stopping_; })) {
        auto live = server::LiveClientPeers();
        if (!live.ok()) continue;  // no answer this time: close nothing
        std::lock_guard lock(state_.mu);
        for (const std::string& closed : state_.CloseOrphans(*live, grace)) {
          std::printf("warmup serve: closed %s\n", closed.c_str());
          std::fflush(stdout);
        }
      }
    });
  }
  void Configure(const ServerOptions& options) {
    state_.golive_delay_ms = options.golive_delay_ms;
    state_.upsert_delay_ms = options.upsert_delay_ms;
    state_.inject_upsert_delay_us = options.inject_upsert_delay_us;
    state_.session_idle_seconds = options.session_idle_seconds;
    state_.observer = options.observer;
    for (const auto& fault : options.faults) state_.faults[fault.method] = fault.after_calls;
  }
  void Shutdown() override {
    std::call_once(shutdown_once_, [this] {
      {
        std::lock_guard lock(reaper_mu_);
        stopping_ = true;
      }
      reaper_cv_.notify_all();
      if (reaper_.joinable()) reaper_.join();
      if (server_) server_->Shutdown();  // null when Listen failed
    });
  }
  void Wait() override {
    if (server_) server_->Wait();
  }
  std::vector<std::string> leftovers() const override { return leftovers_; }
  std::map<std::string, std::set<std::string>> ClientVersions() const override {
    return client_versions_.Get();
  }
  int OpenSessions() const override {
    std::lock_guard lock(state_.mu);
    return state_.SessionCount();
  }
  ~ServerImpl() override { Shutdown(); }

 private:
  ClientVersionLog client_versions_;  // outlives server_, whose interceptors write it
  std::vector<std::string> leftovers_;
  State state_;
  EvitaServiceImpl evita_;
  EvitaSessionServiceImpl session_;
  ManagementServiceImpl management_;
  std::unique_ptr<::grpc::Server> server_;
  int port_ = 0;
  std::unique_ptr<SystemEndpoint> system_;  // null unless ServerOptions::system_listen
  std::thread reaper_;                      // not started when orphan closing is off
  std::mutex reaper_mu_;
  std::condition_variable reaper_cv_;
  bool stopping_ = false;
  std::once_flag shutdown_once_;
};

}  // namespace

namespace server {
// Every Server is a ServerImpl: Server::Start makes no other.
std::shared_ptr<::grpc::Channel> InProcessChannel(Server& server) {
  return static_cast<ServerImpl&>(server).InProcessChannel();
}
}  // namespace server

const std::vector<std::string>& InjectableMethods() {
  static const std::vector<std::string> kMethods = {"UpsertEntity", "GetEntityCollectionSize",
                                                    "GoLiveAndClose", "Query", "GetEntity"};
  return kMethods;
}

StatusOr<std::unique_ptr<Server>> Server::Start(const ServerOptions& options) {
  for (const auto& fault : options.faults) {
    const auto& known = InjectableMethods();
    if (std::find(known.begin(), known.end(), fault.method) == known.end()) {
      std::string list;
      for (const auto& m : known) list += (list.empty() ? "" : ", ") + m;
      return InvalidArgumentError("cannot inject a fault into '" + fault.method + "' (known: " + list + ")");
    }
    if (fault.after_calls < 0) {
      return InvalidArgumentError("an injected fault's call count must not be negative");
    }
  }
  if (Status s = CheckHostPort(options.listen, AddressUse::kListen); !s.ok()) return s;
  auto pem = tls::LoadServerPem(options.tls);
  if (!pem.ok()) return pem.status();
  if (!options.system_listen.empty() && pem->cert_chain.empty()) {
    return InvalidArgumentError(
        "a system endpoint serves the server's certificate: it needs TLS (--tls-cert)");
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
  auto server = std::make_unique<ServerImpl>(std::move(engine).value());
  server->Configure(options);
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
