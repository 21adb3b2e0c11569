// One behaviour suite for every CatalogTarget: the embedded engine, and the
// remote target into warmup's server over a 127.0.0.1 socket and over an
// in-process channel (the protocol without the socket).
#include <doctest/doctest.h>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "rpc/remote_target_channel.h"
#include "server/in_process_channel.h"
#include "server/test_server.h"
#include "warmup/catalog_target.h"
#include "warmup/embedded_target.h"
#include "warmup/generator.h"
#include "warmup/remote_target.h"

namespace warmup {
namespace {

using testing::Address;
using testing::StartServer;

std::unique_ptr<CatalogSource> Tiny() { return std::move(OpenGeneratorSource({"tiny", 1.0, 1, ""})).value(); }

// One behaviour suite for every CatalogTarget.
void CheckConformance(CatalogTarget& target, const std::string& name) {
  CAPTURE(name);
  auto source = Tiny();
  CatalogSchema schema = source->schema();
  schema.name = "conformance";
  REQUIRE_OK(target.CreateCatalog(schema));
  Entity brand;
  auto stream = source->OpenCollection("Brand");
  REQUIRE(*(*stream)->Next(&brand));
  UpsertReceipt receipt;
  REQUIRE_OK(target.Upsert(brand, &receipt));
  if (name != "embedded") {  // the server measures each upsert and says so
    REQUIRE(receipt.server_nanos.has_value());
    CHECK(*receipt.server_nanos > 0);
    CHECK(receipt.request_bytes > 0);
  } else {
    CHECK_FALSE(receipt.server_nanos.has_value());
    CHECK(receipt.request_bytes == 0);
  }
  Entity bad = brand;
  bad.primary_key = brand.primary_key + 1;
  bad.attributes.global["nope"] = Value::String("x");
  Status rejected = target.Upsert(bad, &receipt);
  CHECK(rejected.code() == StatusCode::kInvalidArgument);
  CHECK(rejected.message().find("attribute 'nope'") != std::string::npos);
  CHECK(rejected.message().find("Brand/" + std::to_string(bad.primary_key)) != std::string::npos);
  Entity second = brand;
  second.primary_key = brand.primary_key + 2;
  second.attributes.global["code"] = Value::String("another");
  CHECK(target.Upsert(second, nullptr).ok());  // the rejection left the catalog usable
  REQUIRE_OK(target.GoLive());
  CHECK(*target.Count("Brand") == 2);
  CHECK(*target.Count("Product") == 0);
  {  // read back (content verification): exactly the two accepted entities, as upserted
    auto back = target.ReadBack();
    REQUIRE_OK(back);
    CHECK(FindCollection(**back, "Brand")->expected_count == 2);
    auto brands = (*back)->OpenCollection("Brand");
    REQUIRE_OK(brands);
    Entity read;
    REQUIRE(*(*brands)->Next(&read));
    CHECK(read == brand);
    REQUIRE(*(*brands)->Next(&read));
    CHECK(read == second);
    CHECK_FALSE(*(*brands)->Next(&read));
  }
  CHECK_OK(target.DropCatalog());
}

TEST_CASE("CatalogTarget conformance: embedded, remote over a 127.0.0.1 socket, remote in-process") {
  testing::TempDir dir;
  {
    auto embedded = MakeEmbeddedTarget(dir / "embedded");
    REQUIRE_OK(embedded);
    CheckConformance(**embedded, "embedded");
  }
  auto server = StartServer(dir / "served");
  auto remote = MakeRemoteTarget(Address(*server));
  REQUIRE_OK(remote);
  CheckConformance(**remote, "remote");
  {
    auto in_process = rpc::MakeRemoteTargetOnChannel(server::InProcessChannel(*server), "in-process");
    CHECK(in_process->Describe() == "remote in-process (evitaDB gRPC protocol, plaintext)");
    CheckConformance(*in_process, "remote in-process");
  }
  auto again = MakeRemoteTarget(Address(*server));
  CatalogSchema schema = Tiny()->schema();
  schema.name = "twice";
  REQUIRE_OK((*again)->CreateCatalog(schema));
  auto other = MakeRemoteTarget(Address(*server));
  CHECK((*other)->CreateCatalog(schema).code() == StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace warmup
