#include "warmup/server.h"

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "codec/error_details.h"
#include "codec/pb.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "generator/tiny_profile.h"
#include "rpc/client.h"
#include "server/test_server.h"
#include "warmup/copy_engine.h"
#include "warmup/digest.h"
#include "warmup/engine.h"
#include "warmup/generator.h"
#include "warmup/grpc_source.h"
#include "warmup/remote_target.h"
#include "warmup/report.h"
#include "warmup/run_result.h"
#include "warmup/snapshot.h"

namespace warmup {
namespace {

using testing::Address;
using testing::StartServer;

std::unique_ptr<CatalogSource> Tiny() { return std::move(OpenGeneratorSource({"tiny", 1.0, 1, ""})).value(); }

TEST_CASE(
    "a remote copy into warmup serve is verified, splits server from wire time, and stores the same "
    "entities") {
  testing::TempDir dir;
  auto source = Tiny();
  std::string catalog;
  {
    auto server = StartServer(dir.path());
    auto target = MakeRemoteTarget(Address(*server));
    REQUIRE_OK(target);
    CopyOptions options;
    options.run_label = "remote";
    auto result = RunCopy(*source, **target, options);
    REQUIRE_MESSAGE(result.ok(), result.status().ToString());
    CHECK(result->ExitCode() == 0);
    CHECK(result->verification == Verification::kVerified);
    REQUIRE(result->server.has_value());
    CHECK(result->server->count == 300);
    CHECK(result->server->total_seconds <= result->upsert.total_seconds);
    const std::string report = RenderTextReport(*result);
    CHECK(report.find("of which server") != std::string::npos);
    CHECK(report.find("remote: an upsert's time is end-to-end ingestion latency") != std::string::npos);
    const auto caveats = RunCaveats(*result);
    CHECK(std::any_of(caveats.begin(), caveats.end(), [](const std::string& c) {
      return c.find("the published catalog's entity schemas have key generation off") != std::string::npos;
    }));
    catalog = result->target_catalog;
    server->Shutdown();
  }
  auto engine = Engine::Open(dir.path());
  REQUIRE_OK(engine);
  Catalog* stored = *(*engine)->GetCatalog(catalog);
  CHECK(stored->state() == CatalogState::kAlive);
  auto products = source->OpenCollection("Product");
  Entity e;
  int compared = 0;
  while (*(*products)->Next(&e)) {
    auto got = stored->Get("Product", e.primary_key);
    REQUIRE(got->has_value());
    CHECK(EntityDigest(**got) == EntityDigest(e));
    ++compared;
  }
  CHECK(compared == 200);
}

// What a ServerObserver was told, as "event catalog" lines.
class RecordingObserver : public ServerObserver {
 public:
  void OnFirstUpsert(const std::string& catalog) override { Add("first-upsert " + catalog); }
  void OnGoLiveStart(const std::string& catalog) override { Add("golive-start " + catalog); }
  void OnGoLiveEnd(const std::string& catalog, bool ok) override {
    Add(std::string(ok ? "golive-ok " : "golive-failed ") + catalog);
  }
  void OnInternalError(const std::string& description) override { Add("internal-error " + description); }
  std::vector<std::string> events() {
    std::lock_guard lock(mu_);
    return events_;
  }

 private:
  void Add(std::string event) {
    std::lock_guard lock(mu_);
    events_.push_back(std::move(event));
  }
  std::mutex mu_;
  std::vector<std::string> events_;
};

TEST_CASE("a server observer hears each catalog's first upsert once, then its goLive start and end") {
  testing::TempDir dir;
  RecordingObserver observer;
  ServerOptions options;
  options.observer = &observer;
  auto server = StartServer(dir.path(), options);
  for (const char* name : {"first", "second"}) {
    auto target = MakeRemoteTarget(Address(*server));
    REQUIRE_OK(target);
    auto source = Tiny();
    CopyOptions copy;
    copy.target_catalog = name;
    auto result = RunCopy(*source, **target, copy);
    REQUIRE_OK(result);
    CHECK(result->ExitCode() == 0);
  }
  CHECK(observer.events() == std::vector<std::string>{"first-upsert first", "golive-start first",
                                                      "golive-ok first", "first-upsert second",
                                                      "golive-start second", "golive-ok second"});
}

// Seen against evitaDB: "creating catalog tiny_85c1: UpdateCatalogSchema: "
// and nothing after it (a LONG_RANGE associated data), then, once tiny left
// those out, "Invalid type: `class [Ljava.lang.Character;`! Attribute
// `acharacterarray` ... was already stored as type class java.lang.Character".
// serve answers both as evitaDB does; the client names the evitaDB defect.
TEST_CASE(
    "regression: serve refuses what evitaDB cannot define over gRPC as evitaDB does, and the client says "
    "why") {
  testing::TempDir dir;
  RecordingObserver observer;
  ServerOptions options;
  options.observer = &observer;
  auto server = StartServer(dir.path(), options);
  auto source = Tiny();
  SUBCASE("number-range associated data: INTERNAL with no message, the reason in serve's log") {
    CatalogSchema schema = source->schema();
    schema.name = "ranges";
    AssociatedDataSchema ranges;
    ranges.name = "validFor";
    ranges.type = ValueType::kLongNumberRange;
    ranges.nullable = true;
    schema.entities.at("Product").associated_data.emplace(ranges.name, ranges);
    auto target = MakeRemoteTarget(Address(*server));
    REQUIRE_OK(target);
    const Status created = (*target)->CreateCatalog(schema);
    CHECK(created.code() == StatusCode::kInternal);
    CHECK(created.message().find("UpdateCatalogSchema: INTERNAL with no message from the server") == 0);
    CHECK(
        created.message().find("Product associated data validFor (LONG_NUMBER_RANGE): evitaDB cannot define "
                               "associated data of a number-range type over gRPC") != std::string::npos);
    const auto events = observer.events();
    REQUIRE(events.size() == 1);
    CAPTURE(events[0]);
    CHECK(events[0].find("internal-error UpdateCatalogSchema: ") == 0);
    CHECK(events[0].find("LONG_NUMBER_RANGE: evitaDB cannot define associated data") != std::string::npos);
  }
  SUBCASE("a CHARACTER_ARRAY attribute is defined as CHARACTER, and its values are refused") {
    CatalogSchema schema = source->schema();
    schema.name = "characters";
    AttributeSchema letters;
    letters.name = "letters";
    letters.type = ValueType::kCharacterArray;
    letters.nullable = true;
    schema.entities.at("Brand").attributes.emplace(letters.name, letters);
    auto target = MakeRemoteTarget(Address(*server));
    REQUIRE_OK(target);
    REQUIRE_OK((*target)->CreateCatalog(schema));
    auto letters_value = Value::Make(ValueType::kCharacterArray, {std::string("a"), std::string("b")});
    REQUIRE_OK(letters_value);
    generator::Rng rng(5);
    Entity brand = generator::RandomEntity(rng, schema, "Brand", 1);
    brand.attributes.global.insert_or_assign("letters", *letters_value);
    const Status upserted = (*target)->Upsert(brand, nullptr);
    CHECK(upserted.code() == StatusCode::kInvalidArgument);
    CHECK(upserted.message().find(
              "Brand has what evitaDB cannot take: attribute letters (CHARACTER_ARRAY): evitaDB "
              "defines a CHARACTER_ARRAY item sent over gRPC as CHARACTER") != std::string::npos);
    (void)(*target)->DropCatalog();
  }
}

TEST_CASE("an injected upsert delay is spent inside the measured server time of every upsert") {
  testing::TempDir dir;
  ServerOptions options;
  options.inject_upsert_delay_us = 3000;
  auto server = StartServer(dir.path(), options);
  auto target = MakeRemoteTarget(Address(*server));
  REQUIRE_OK(target);
  auto source = Tiny();
  auto result = RunCopy(*source, **target, {});
  REQUIRE_OK(result);
  CHECK(result->ExitCode() == 0);
  for (const CollectionResult& c : result->collections) {
    REQUIRE(c.server.has_value());
    // A lower bound, not a timing: the busy wait cannot end early.
    CHECK_MESSAGE(c.server->median_us >= 3000, c.entity_type);
  }
}

TEST_CASE("the server enforces evitaDB's session rules and keeps serving") {
  testing::TempDir dir;
  auto server = StartServer(dir.path());
  auto channel = ::grpc::CreateChannel(Address(*server), ::grpc::InsecureChannelCredentials());
  auto evita = pb::EvitaService::NewStub(channel);
  auto session = pb::EvitaSessionService::NewStub(channel);
  {
    ::grpc::ClientContext context;
    pb::GrpcUpsertEntityRequest request;
    pb::GrpcUpsertEntityResponse response;
    ::grpc::Status status = session->UpsertEntity(&context, request, &response);
    CHECK(status.error_code() == ::grpc::StatusCode::UNAUTHENTICATED);
    CHECK(status.error_message().find("is either not set or is not active") != std::string::npos);
  }
  pb::GrpcDefineCatalogRequest define;
  define.set_catalogname("rules");
  pb::GrpcDefineCatalogResponse defined;
  {
    ::grpc::ClientContext context;
    REQUIRE_OK(evita->DefineCatalog(&context, define, &defined));
  }
  pb::GrpcEvitaSessionRequest open;
  open.set_catalogname("rules");
  pb::GrpcEvitaSessionResponse first;
  {
    ::grpc::ClientContext context;
    REQUIRE_OK(evita->CreateReadWriteSession(&context, open, &first));
    CHECK(first.sessionid().size() == 36);
    CHECK(first.catalogstate() == pb::WARMING_UP);
  }
  {
    ::grpc::ClientContext context;
    pb::GrpcEvitaSessionResponse second;
    ::grpc::Status status = evita->CreateReadWriteSession(&context, open, &second);
    CHECK(status.error_code() == ::grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(status.error_message().find("ConcurrentInitializationException") != std::string::npos);
  }
  {
    ::grpc::ClientContext context;
    pb::GrpcGetCatalogStateRequest request;
    request.set_catalogname("missing");
    pb::GrpcGetCatalogStateResponse response;
    REQUIRE_OK(evita->GetCatalogState(&context, request, &response));
    CHECK_FALSE(response.has_catalogstate());  // unset = no such catalog
  }
  {
    // A request over evitaDB's 2 MB cap is refused; the server keeps serving.
    ::grpc::ClientContext context;
    context.AddMetadata("sessionid", first.sessionid());
    pb::GrpcUpsertEntityRequest request;
    auto* upsert = request.mutable_entitymutation()->mutable_entityupsertmutation();
    upsert->set_entitytype("Brand");
    auto* attribute = upsert->add_mutations()->mutable_upsertattributemutation();
    attribute->set_attributename("code");
    attribute->mutable_attributevalue()->set_stringvalue(std::string(3 << 20, 'x'));
    pb::GrpcUpsertEntityResponse response;
    CHECK(session->UpsertEntity(&context, request, &response).error_code() ==
          ::grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  ::grpc::ClientContext context;
  pb::GrpcReadyResponse ready;
  CHECK_OK(evita->IsReady(&context, google::protobuf::Empty(), &ready));
  CHECK(ready.ready());
}

TEST_CASE(
    "regression: serve refused misuse NOT_FOUND without details, now INVALID_ARGUMENT naming evitaDB's "
    "exception "
    "class in google.rpc.ErrorInfo, and the client tells a refused session from a refused entity") {
  testing::TempDir dir;
  auto server = StartServer(dir.path());
  auto channel = ::grpc::CreateChannel(Address(*server), ::grpc::InsecureChannelCredentials());
  auto evita = pb::EvitaService::NewStub(channel);
  pb::GrpcEvitaSessionRequest open;
  open.set_catalogname("missing");
  pb::GrpcEvitaSessionResponse opened;
  {
    ::grpc::ClientContext context;
    const ::grpc::Status status = evita->CreateReadWriteSession(&context, open, &opened);
    CHECK(status.error_code() == ::grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(codec::ErrorDomain(status.error_details()) == "CatalogNotFoundException");
  }
  {
    pb::GrpcDefineCatalogRequest define;
    define.set_catalogname("busy");
    pb::GrpcDefineCatalogResponse defined;
    ::grpc::ClientContext context;
    REQUIRE_OK(evita->DefineCatalog(&context, define, &defined));
  }
  const std::string writer = testing::OpenSession(Address(*server), "busy", /*read_write=*/true);
  open.set_catalogname("busy");
  {
    ::grpc::ClientContext context;
    const ::grpc::Status status = evita->CreateReadOnlySession(&context, open, &opened);
    CHECK(status.error_code() == ::grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(codec::ErrorDomain(status.error_details()) == "ConcurrentInitializationException");
  }
  // An entity the engine refuses is INVALID_ARGUMENT too, under the base class.
  {
    auto session = pb::EvitaSessionService::NewStub(channel);
    ::grpc::ClientContext context;
    context.AddMetadata("sessionid", writer);
    pb::GrpcUpsertEntityRequest request;
    request.mutable_entitymutation()->mutable_entityupsertmutation()->set_entitytype("Nothing");
    pb::GrpcUpsertEntityResponse response;
    const ::grpc::Status status = session->UpsertEntity(&context, request, &response);
    CHECK(status.error_code() == ::grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(codec::ErrorDomain(status.error_details()) == "CollectionNotFoundException");
  }
  // The client: a missing catalog is NOT_FOUND, a busy one a failed precondition (never a rejected
  // entity), each naming the class.
  auto client = rpc::EvitaClient::Connect(Address(*server), {}, 10);
  REQUIRE_OK(client);
  auto missing = client->OpenSession("missing", /*read_write=*/true);
  CHECK(missing.status().code() == StatusCode::kNotFound);
  CHECK(missing.status().message().find("catalog missing does not exist") != std::string::npos);
  auto busy = client->OpenSession("busy", /*read_write=*/true);
  CHECK(busy.status().code() == StatusCode::kFailedPrecondition);
  CHECK(busy.status().message().find("ConcurrentInitializationException") != std::string::npos);
}

TEST_CASE(
    "regression: the session the counts were read in was never closed, now no load, kept catalog or export "
    "leaves a session open") {
  testing::TempDir dir;
  auto server = StartServer(dir.path());
  auto source = Tiny();
  {
    auto target = MakeRemoteTarget(Address(*server));
    REQUIRE_OK(target);
    CopyOptions options;
    options.target_catalog = "verified";
    options.verify = VerifyMode::kContent;
    auto result = RunCopy(*source, **target, options);
    REQUIRE_OK(result);
    CHECK(result->ExitCode() == 0);
  }
  CHECK(server->OpenSessions() == 0);
  {
    // A load that stops before goLive, its catalog kept WARMING_UP.
    auto target = MakeRemoteTarget(Address(*server));
    REQUIRE_OK(target);
    CatalogSchema schema = source->schema();
    schema.name = "kept";
    REQUIRE_OK((*target)->CreateCatalog(schema));
    CHECK(server->OpenSessions() == 1);
  }
  CHECK(server->OpenSessions() == 0);
  {
    GrpcSourceOptions options;
    options.allow_not_alive = true;
    auto kept = OpenGrpcSource(Address(*server), "kept", options);
    REQUIRE_OK(kept);
    auto verified = OpenGrpcSource(Address(*server), "verified");
    REQUIRE_OK(verified);
    REQUIRE_OK(WriteSnapshot(**verified, dir / "export", {}));
  }
  CHECK(server->OpenSessions() == 0);
}

// A write session left idle longer than the server's limit: the keeper's
// calls keep it open (and without them it is closed, so the test can fail).
void LoadWithAPause(int keepalive_seconds, bool expect_live) {
  testing::TempDir dir;
  ServerOptions options;
  options.session_idle_seconds = 2;
  auto server = StartServer(dir.path(), options);
  RemoteTargetOptions target_options;
  target_options.session_keepalive_seconds = keepalive_seconds;
  auto target = MakeRemoteTarget(Address(*server), target_options);
  REQUIRE_OK(target);
  auto source = Tiny();
  CatalogSchema schema = source->schema();
  schema.name = "paused";
  REQUIRE_OK((*target)->CreateCatalog(schema));
  auto brands = source->OpenCollection("Brand");
  REQUIRE_OK(brands);
  Entity brand;
  REQUIRE(*(*brands)->Next(&brand));
  REQUIRE_OK((*target)->Upsert(brand, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(4500));  // a slow source: past the 2 s limit
  REQUIRE(*(*brands)->Next(&brand));
  const Status second = (*target)->Upsert(brand, nullptr);
  const Status live = (*target)->GoLive();
  if (expect_live) {
    CHECK_OK(second);
    CHECK_OK(live);
  } else {
    CHECK(second.code() == StatusCode::kUnauthenticated);
  }
}

TEST_CASE(
    "regression: a load paused longer than the server's session idle limit lost its write session, now a "
    "keep-alive call holds it and the catalog goes live") {
  LoadWithAPause(/*keepalive_seconds=*/1, /*expect_live=*/true);
  LoadWithAPause(/*keepalive_seconds=*/0, /*expect_live=*/false);
}

TEST_CASE(
    "a goLive slower than the client's timeout: failure marker, time to failure, then the server's outcome") {
  testing::TempDir dir;
  ServerOptions options;
  options.golive_delay_ms = 2500;
  auto server = StartServer(dir.path(), options);
  {
    RemoteTargetOptions impatient;
    impatient.golive_timeout_seconds = 1;
    auto target = MakeRemoteTarget(Address(*server), impatient);
    auto source = Tiny();
    auto result = RunCopy(*source, **target, {});
    REQUIRE_OK(result);
    CHECK(result->golive == GoLiveOutcome::kFailed);
    CHECK_FALSE(result->total_seconds().has_value());
    CHECK(result->golive_error.find("DEADLINE_EXCEEDED") != std::string::npos);
    CHECK_MESSAGE(result->golive_error.find("server-side: the catalog became ALIVE") != std::string::npos,
                  result->golive_error);
    CHECK(result->ExitCode() == 1);
    CHECK(RenderTextReport(*result).find("*** CLIENT-SIDE FAILURE ***") != std::string::npos);
  }
  // With the defaults (no goLive deadline) the same slow goLive completes and is measured.
  auto patient = MakeRemoteTarget(Address(*server));
  auto source = Tiny();
  CopyOptions copy;
  copy.target_catalog = "patient";
  auto result = RunCopy(*source, **patient, copy);
  REQUIRE_OK(result);
  CHECK(result->golive == GoLiveOutcome::kCompleted);
  CHECK(result->ExitCode() == 0);
}

TEST_CASE("a session idle beyond the server's limit is closed: UNAUTHENTICATED") {
  testing::TempDir dir;
  ServerOptions options;
  options.session_idle_seconds = 1;
  auto server = StartServer(dir.path(), options);
  auto evita = pb::EvitaService::NewStub(
      ::grpc::CreateChannel(Address(*server), ::grpc::InsecureChannelCredentials()));
  {
    ::grpc::ClientContext context;
    pb::GrpcDefineCatalogRequest define;
    define.set_catalogname("idle");
    pb::GrpcDefineCatalogResponse defined;
    REQUIRE_OK(evita->DefineCatalog(&context, define, &defined));
  }
  const std::string session = testing::OpenSession(Address(*server), "idle", /*read_write=*/false);
  CHECK(testing::CallInSession(Address(*server), session) == ::grpc::StatusCode::OK);
  std::this_thread::sleep_for(std::chrono::milliseconds(1600));
  CHECK(testing::CallInSession(Address(*server), session) == ::grpc::StatusCode::UNAUTHENTICATED);
}

// One raw unary call of `method` carrying `payload` as its request bytes.
::grpc::Status RawCall(const std::shared_ptr<::grpc::Channel>& channel, const std::string& method,
                       const std::string& payload) {
  ::grpc::GenericStub stub(channel);
  ::grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  ::grpc::Slice slice(payload);
  const ::grpc::ByteBuffer request(&slice, 1);
  ::grpc::ByteBuffer response;
  std::mutex mu;
  std::condition_variable done_cv;
  bool done = false;
  ::grpc::Status result;
  stub.UnaryCall(&context, method, {}, &request, &response, [&](::grpc::Status status) {
    std::lock_guard lock(mu);
    result = std::move(status);
    done = true;
    done_cv.notify_one();
  });
  std::unique_lock lock(mu);
  done_cv.wait(lock, [&] { return done; });
  return result;
}

TEST_CASE("fault: malformed and unknown-method requests get errors, and the server keeps serving") {
  testing::TempDir dir;
  auto server = StartServer(dir.path());
  auto channel = ::grpc::CreateChannel(Address(*server), ::grpc::InsecureChannelCredentials());
  const std::string service = "/io.evitadb.externalApi.grpc.generated.EvitaSessionService/";
  // Bytes that are no protobuf message at all (an unterminated varint field).
  const ::grpc::Status malformed =
      RawCall(channel, service + "UpsertEntity", std::string("\x0a\xff\xff\xff", 4));
  CHECK(malformed.error_code() == ::grpc::StatusCode::INTERNAL);
  const ::grpc::Status unknown = RawCall(channel, service + "DropEverything", "");
  CHECK(unknown.error_code() == ::grpc::StatusCode::UNIMPLEMENTED);
  const ::grpc::Status unknown_service = RawCall(channel, "/nope.Nothing/Call", "x");
  CHECK(unknown_service.error_code() == ::grpc::StatusCode::UNIMPLEMENTED);
  // Still serving, and still whole: a full copy verifies after them.
  auto target = MakeRemoteTarget(Address(*server));
  REQUIRE_OK(target);
  auto source = OpenGeneratorSource({"tiny", 1.0, 5, ""});
  auto run = RunCopy(**source, **target, {});
  REQUIRE_OK(run);
  CHECK(run->ExitCode() == 0);
}

// A channel of its own (no connection shared with other channels of the
// process), so that destroying it closes its connection.
std::shared_ptr<::grpc::Channel> OwnChannel(const std::string& address) {
  ::grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return ::grpc::CreateCustomChannel(address, ::grpc::InsecureChannelCredentials(), args);
}

::grpc::Status OpenWriteSession(pb::EvitaService::Stub& evita, const std::string& catalog, std::string* id) {
  ::grpc::ClientContext context;
  pb::GrpcEvitaSessionRequest open;
  open.set_catalogname(catalog);
  pb::GrpcEvitaSessionResponse opened;
  ::grpc::Status status = evita.CreateReadWriteSession(&context, open, &opened);
  *id = opened.sessionid();
  return status;
}

TEST_CASE(
    "regression: a killed loader's session held its warming-up catalog forever, now the server closes the "
    "sessions of a client whose connection is gone") {
  // Told from the reaper's thread; read here after the reopening saw it done.
  class ClosedLog : public ServerObserver {
   public:
    void OnOrphanedSessionClosed(const std::string& description) override {
      std::lock_guard lock(mu);
      closed.push_back(description);
    }
    std::mutex mu;
    std::vector<std::string> closed;
  } log;
  testing::TempDir dir;
  ServerOptions options;
  options.orphaned_session_grace_seconds = 1;
  options.observer = &log;
  auto server = StartServer(dir.path(), options);
  const std::string address = Address(*server);
  auto held = OwnChannel(address);
  auto evita = pb::EvitaService::NewStub(held);
  for (const char* name : {"orphaned", "held"}) {
    ::grpc::ClientContext context;
    pb::GrpcDefineCatalogRequest define;
    define.set_catalogname(name);
    pb::GrpcDefineCatalogResponse defined;
    REQUIRE_OK(evita->DefineCatalog(&context, define, &defined));
  }
  std::string held_session;
  REQUIRE_OK(OpenWriteSession(*evita, "held", &held_session));
  {
    auto gone = pb::EvitaService::NewStub(OwnChannel(address));
    std::string orphan;
    REQUIRE_OK(OpenWriteSession(*gone, "orphaned", &orphan));
    std::string second;
    CHECK(OpenWriteSession(*evita, "orphaned", &second).error_code() == ::grpc::StatusCode::INVALID_ARGUMENT);
  }  // the loader dies: its channel, and with it its connection, is gone
  // Within the grace (1 s) and the reaper's period (1 s), bounded at 15 s.
  ::grpc::Status reopened;
  std::string session;
  for (int attempt = 0; attempt < 150; ++attempt) {
    reopened = OpenWriteSession(*evita, "orphaned", &session);
    if (reopened.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK_MESSAGE(reopened.ok(), reopened.error_message());
  {
    // The library prints nothing: the closing is an observer event.
    std::lock_guard lock(log.mu);
    REQUIRE(log.closed.size() == 1);
    CHECK(log.closed[0].find("read-write session ") == 0);
    CHECK(log.closed[0].find(" on catalog orphaned (client ipv") != std::string::npos);
    CHECK(log.closed[0].ends_with(" disconnected)"));
  }
  // The connected client's sessions stay, however long it waits.
  auto session_stub = pb::EvitaSessionService::NewStub(held);
  ::grpc::ClientContext context;
  context.AddMetadata("sessionid", held_session);
  pb::GrpcCatalogStateResponse state;
  CHECK_OK(session_stub->GetCatalogState(&context, google::protobuf::Empty(), &state));
}

// Shuts the server down after `after` upserts, then behaves as the remote target would.
class DyingServerTarget : public CatalogTarget {
 public:
  DyingServerTarget(Server* server, std::unique_ptr<CatalogTarget> remote, int after)
      : server_(server), remote_(std::move(remote)), after_(after) {}
  std::string Describe() const override { return "remote, server killed mid-load"; }
  Status CreateCatalog(const CatalogSchema& schema) override { return remote_->CreateCatalog(schema); }
  Status Upsert(const Entity& entity, UpsertReceipt* receipt) override {
    if (++upserts_ == after_) server_->Shutdown();
    return remote_->Upsert(entity, receipt);
  }
  Status GoLive() override { return remote_->GoLive(); }
  StatusOr<int64_t> Count(const std::string& type) override { return remote_->Count(type); }
  Status DropCatalog() override { return remote_->DropCatalog(); }

 private:
  Server* server_;
  std::unique_ptr<CatalogTarget> remote_;
  int after_;
  int upserts_ = 0;
};

TEST_CASE(
    "the server gone mid-load: the loader stops with exit 1, a clear message and its figures, and nothing "
    "hangs") {
  testing::TempDir dir;
  auto server = StartServer(dir.path());
  RemoteTargetOptions options;
  options.call_timeout_seconds = 5;
  DyingServerTarget target(server.get(), std::move(MakeRemoteTarget(Address(*server), options)).value(), 50);
  auto source = Tiny();
  auto result = RunCopy(*source, target, {});
  REQUIRE_OK(result);
  CHECK(result->ExitCode() == 1);
  CHECK(result->abort_error.find("UNAVAILABLE") != std::string::npos);
  CHECK(result->copied() == 49);
  CHECK(result->upsert.count == 50);
  CHECK(RenderTextReport(*result).find("ABORTED") != std::string::npos);
}

TEST_CASE(
    "Server::Wait returns once another thread has shut the server down, and later calls fail UNAVAILABLE") {
  testing::TempDir dir;
  auto server = StartServer(dir.path());
  const std::string address = Address(*server);
  std::thread stopper([&] { server->Shutdown(); });
  server->Wait();  // a hang here is this test's failure, caught by its ctest timeout
  stopper.join();
  RemoteTargetOptions options;
  options.call_timeout_seconds = 2;
  auto target = MakeRemoteTarget(address, options);
  CatalogSchema schema;
  schema.name = "after";
  CHECK((*target)->CreateCatalog(schema).code() == StatusCode::kUnavailable);
}

TEST_CASE("regression: Server::Start crashed when it could not listen, and every bad address is an error") {
  testing::TempDir dir;
  for (const char* listen : {"127.0.0.1:abc", "127.0.0.1:-1", "127.0.0.1:99999", "127.0.0.1", "[::1:5555"}) {
    CAPTURE(listen);
    ServerOptions options;
    options.data_dir = dir / "data";
    options.listen = listen;
    auto server = Server::Start(options);
    CHECK(server.status().code() == StatusCode::kInvalidArgument);
    CHECK(server.status().message().find(std::string("address '") + listen + "'") == 0);
  }
  // Well formed, but no address of this machine: the bind fails, and the
  // half-made server is destroyed without a crash.
  ServerOptions options;
  options.data_dir = dir / "data";
  options.listen = "192.0.2.1:5555";  // TEST-NET-1, never assigned to a host
  auto server = Server::Start(options);
  CHECK(server.status().code() == StatusCode::kUnavailable);
  CHECK(server.status().message().find("cannot listen on 192.0.2.1:5555") == 0);
}

TEST_CASE("regression: a second server on a port in use shared it (SO_REUSEPORT), now it is refused") {
  testing::TempDir dir;
  auto first = StartServer(dir / "first");
  ServerOptions options;
  options.data_dir = dir / "second";
  options.listen = Address(*first);
  auto second = Server::Start(options);
  CHECK(second.status().code() == StatusCode::kUnavailable);
  CHECK(second.status().message().find("cannot listen on " + Address(*first) + ": the port is in use") == 0);
  // The first still serves.
  auto target = MakeRemoteTarget(Address(*first));
  CatalogSchema schema = Tiny()->schema();
  schema.name = "still_served";
  CHECK_OK((*target)->CreateCatalog(schema));
}

TEST_CASE(
    "regression: a page query that names no scope got archived entities too, like evitaDB, the server "
    "answers "
    "LIVE only unless scope(...) asks for more, and the gRPC source asks for both") {
  testing::TempDir dir;
  auto source = Tiny();
  // The oracle: the source's own entities and their scopes.
  int64_t live = 0, archived = 0;
  {
    auto products = source->OpenCollection("Product");
    REQUIRE_OK(products);
    Entity e;
    while (*(*products)->Next(&e)) (e.scope == Scope::kArchived ? archived : live) += 1;
  }
  REQUIRE(archived > 0);  // tiny archives about one product in ten
  REQUIRE(live > 0);
  auto server = StartServer(dir.path());
  auto target = MakeRemoteTarget(Address(*server));
  REQUIRE_OK(target);
  CopyOptions options;
  options.target_catalog = "scoped";
  REQUIRE_OK(RunCopy(*source, **target, options));
  const std::string session = testing::OpenSession(Address(*server), "scoped", false);
  auto stub = pb::EvitaSessionService::NewStub(
      ::grpc::CreateChannel(Address(*server), ::grpc::InsecureChannelCredentials()));
  auto count = [&](const std::string& query, std::vector<pb::GrpcQueryParam> extra) {
    pb::GrpcQueryRequest request;
    request.set_query(query);
    request.add_positionalqueryparams()->set_stringvalue("Product");
    for (auto& p : extra) *request.add_positionalqueryparams() = p;
    pb::GrpcQueryResponse response;
    ::grpc::ClientContext context;
    context.AddMetadata("sessionid", session);
    const ::grpc::Status status = stub->Query(&context, request, &response);
    REQUIRE_MESSAGE(status.ok(), status.error_message());
    return static_cast<int64_t>(response.recordpage().totalrecordcount());
  };
  pb::GrpcQueryParam both;
  both.mutable_scopearrayvalue()->add_value(pb::SCOPE_LIVE);
  both.mutable_scopearrayvalue()->add_value(pb::SCOPE_ARCHIVED);
  pb::GrpcQueryParam only_archived;
  only_archived.set_scope(pb::SCOPE_ARCHIVED);
  CHECK(count("query(collection(?))", {}) == live);
  CHECK(count("query(collection(?), filterBy(scope(?)))", {both}) == live + archived);
  CHECK(count("query(collection(?), filterBy(scope(?)))", {only_archived}) == archived);
  // The gRPC source reads every entity of both scopes, as many as the collection's size says.
  auto read = OpenGrpcSource(Address(*server), "scoped");
  REQUIRE_OK(read);
  auto products = (*read)->OpenCollection("Product");
  REQUIRE_OK(products);
  Entity e;
  int64_t read_back = 0, read_archived = 0;
  while (true) {
    auto more = (*products)->Next(&e);
    REQUIRE_OK(more);
    if (!*more) break;
    ++read_back;
    read_archived += e.scope == Scope::kArchived;
  }
  CHECK(read_back == live + archived);
  CHECK(read_archived == archived);
}

}  // namespace
}  // namespace warmup
