// What every call of warmup's evitaDB client carries, as the server saw it.
#include "rpc/client.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "server/test_server.h"
#include "warmup/copy_engine.h"
#include "warmup/generator.h"
#include "warmup/grpc_source.h"
#include "warmup/remote_target.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

TEST_CASE(
    "every call of the remote target and the gRPC source carries clientversion (regression: the "
    "target sent none)") {
  testing::TempDir dir;
  auto server = testing::StartServer(dir / "served");
  const std::string address = testing::Address(*server);
  auto generated = OpenGeneratorSource({"tiny", 1.0, 5, ""});
  REQUIRE_OK(generated);
  {
    auto target = MakeRemoteTarget(address);
    REQUIRE_OK(target);
    CopyOptions options;
    options.target_catalog = "versioned";
    auto run = RunCopy(**generated, **target, options);
    REQUIRE_OK(run);
    REQUIRE(run->ExitCode() == 0);
  }
  {
    auto source = OpenGrpcSource(address, "versioned");
    REQUIRE_OK(source);
    auto run = RunCopy(**source, *MakeNullTarget(), {});
    REQUIRE_OK(run);
    REQUIRE(run->ExitCode() == 0);
  }
  {
    auto target = MakeRemoteTarget(address);
    REQUIRE_OK(target);
    CatalogSchema schema = (*generated)->schema();
    schema.name = "dropped";
    REQUIRE_OK((*target)->CreateCatalog(schema));
    REQUIRE_OK((*target)->DropCatalog());
  }
  const std::map<std::string, std::set<std::string>> seen = server->ClientVersions();
  for (const char* method :
       {"GetCatalogState", "DefineCatalog", "CreateReadWriteSession", "UpdateCatalogSchema", "UpsertEntity",
        "GoLiveAndCloseWithProgress", "CreateReadOnlySession", "GetEntityCollectionSize", "GetCatalogSchema",
        "GetAllEntityTypes", "GetEntitySchema", "Query", "DeleteCatalogIfExists"}) {
    CAPTURE(method);
    CHECK(seen.contains(method));
  }
  for (const auto& [rpc_method, versions] : seen) {
    const std::string& method = rpc_method;  // doctest captures it; a binding cannot be
    CAPTURE(method);
    CHECK(versions == std::set<std::string>{rpc::kClientVersion});
  }
}

// Seen against evitaDB: "creating catalog tiny_85c1: UpdateCatalogSchema: "
// and nothing after it. evitaDB answers an exception it did not expect
// INTERNAL with no message and no details (GlobalExceptionHandlerInterceptor).
TEST_CASE("regression: a server error with no message says so, and names where the reason is") {
  const Status bare = rpc::FromGrpc(::grpc::Status(::grpc::StatusCode::INTERNAL, ""), "UpdateCatalogSchema");
  CHECK(bare.code() == StatusCode::kInternal);
  CHECK(bare.message() ==
        "UpdateCatalogSchema: INTERNAL with no message from the server (evitaDB answers so for an "
        "exception it did not expect; its log names it)");
  // A message is quoted as it is; with no message, the details' reason stands in.
  const Status said =
      rpc::FromGrpc(::grpc::Status(::grpc::StatusCode::INVALID_ARGUMENT, "E1: no"), "UpsertEntity");
  CHECK(said.message() == "UpsertEntity: E1: no");
}

TEST_CASE("a call without clientversion is seen as one (the server's log is not a constant)") {
  testing::TempDir dir;
  auto server = testing::StartServer(dir / "served");
  // A raw call, as another client might make it; refused (no such session), but seen.
  CHECK(testing::CallInSession(testing::Address(*server), "no-such-session") ==
        ::grpc::StatusCode::UNAUTHENTICATED);
  CHECK(server->ClientVersions() == std::map<std::string, std::set<std::string>>{{"GetCatalogState", {""}}});
}

TEST_CASE(
    "a plaintext call answered HTTP 403, as evitaDB's default TLS-only endpoint answers it, says the server "
    "wants "
    "TLS and how, in the caller's words") {
  // grpc++'s words for an HTTP 403 on the shared port, as evitaDB's FORCE_TLS endpoint sends it.
  const Status denied(StatusCode::kPermissionDenied,
                      "IsReady on evita:5555: Received http2 header with status: 403");
  const Status plaintext = rpc::ExplainTransport(denied, /*tls=*/false, /*client_certificate=*/false);
  CHECK(plaintext.code() == StatusCode::kFailedPrecondition);
  CHECK(plaintext.message().find("Received http2 header with status: 403") != std::string::npos);
  CHECK(plaintext.message().find("the server wants TLS, as evitaDB does by default: enable TLS, with the CA "
                                 "certificate or the server certificate's address)") != std::string::npos);
  ClientTlsNames flags;
  flags.enable = "add --tls";
  flags.ca_cert = "--ca-cert";
  flags.fetch_server_cert = "--fetch-server-cert";
  CHECK(rpc::ExplainTransport(denied, false, false, flags)
            .message()
            .ends_with("(the server wants TLS, as evitaDB does by default: add --tls, with --ca-cert or "
                       "--fetch-server-cert)"));
  // Over TLS a 403 is the server's own refusal: left as it is.
  CHECK(rpc::ExplainTransport(denied, true, false) == denied);
  // A permission refusal that is not the transport's 403 is not explained away.
  const Status other(StatusCode::kPermissionDenied, "Close: not yours");
  CHECK(rpc::ExplainTransport(other, false, false) == other);
  // "Socket closed" gets the likely reason for each transport.
  const Status closed(StatusCode::kUnavailable, "Query: Socket closed");
  CHECK(rpc::ExplainTransport(closed, false, false).message().find("over plaintext") != std::string::npos);
  CHECK(rpc::ExplainTransport(closed, true, false).message().find("wants client certificates") !=
        std::string::npos);
  CHECK(rpc::ExplainTransport(closed, true, true).message().find("may not accept this client certificate") !=
        std::string::npos);
  CHECK(rpc::ExplainTransport(OkStatus(), false, false).ok());
}

}  // namespace
}  // namespace warmup
