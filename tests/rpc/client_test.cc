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

TEST_CASE("a call without clientversion is seen as one (the server's log is not a constant)") {
  testing::TempDir dir;
  auto server = testing::StartServer(dir / "served");
  // A raw call, as another client might make it; refused (no such session), but seen.
  CHECK(testing::CallInSession(testing::Address(*server), "no-such-session") ==
        ::grpc::StatusCode::UNAUTHENTICATED);
  CHECK(server->ClientVersions() == std::map<std::string, std::set<std::string>>{{"GetCatalogState", {""}}});
}

}  // namespace
}  // namespace warmup
