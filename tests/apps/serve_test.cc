// warmup serve as a process: start-up header, a remote copy into it, SIGTERM.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "apps/cli.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "common/test_certificates.h"
#include "warmup/copy_engine.h"
#include "warmup/engine.h"
#include "warmup/generator.h"
#include "warmup/remote_target.h"
#include "warmup/run_result.h"
#include "warmup/snapshot.h"

namespace warmup {
namespace {

using testing::CliResult;
using testing::RunCli;
using testing::ServeProcess;

TEST_CASE("warmup serve: header with pid and port, a remote load into it, clean shutdown on SIGTERM") {
  testing::TempDir dir;
  ServeProcess server;
  server.Start(dir / "data");
  CHECK(server.reported_pid() == server.pid());
  CHECK(server.output().find("memory limit") != std::string::npos);

  auto source = OpenGeneratorSource({"tiny", 1.0, 2, ""});
  auto target = MakeRemoteTarget(server.address());
  auto result = RunCopy(**source, **target, {});
  REQUIRE_OK(result);
  CHECK(result->ExitCode() == 0);

  const CliResult stopped = server.Stop();
  CHECK_MESSAGE(std::regex_search(stopped.output,
                                  std::regex("stopped: user .* peak RSS .* page faults .* context switches")),
                stopped.output);
  CHECK(stopped.exited);
  CHECK(stopped.exit_code == 0);
}

TEST_CASE(
    "warmup serve on SIGTERM ends with no gRPC, reaper or system-endpoint thread left running (regression: a "
    "server kept whole until the process ended was ended by a signal now and then after a clean stop)") {
  testing::TempDir dir;
  const testing::TestCertificates certs;
  ServeProcess server;
  // TLS, the system endpoint and the orphan reaper (on by default): every
  // thread serve starts besides gRPC's own.
  server.Start(dir / "data", {"--tls-cert", certs.server_cert(), "--tls-key", certs.server_key(),
                              "--system-listen", "127.0.0.1:0"});
  server.AwaitOutput("system endpoint: http://127.0.0.1:\\d+/system/server.crt");
  const CliResult loaded =
      RunCli({"load", "--pristine-dir", testing::GenerateTiny(dir), "--target", "remote", "--address",
              server.address(), "--tls", "--ca-cert", certs.ca(), "--quiet"});
  CHECK_MESSAGE(loaded.exit_code == 0, loaded.output);
  const CliResult stopped = server.Stop();
  CHECK_MESSAGE(stopped.exit_code == 0, "signal ", stopped.signal, ": ", stopped.output);
  CHECK_MESSAGE(testing::Contains(stopped.output, "; 1 thread(s) left running"), stopped.output);
}

TEST_CASE(
    "warmup serve on SIGTERM hands a warming-up catalog's buffered records to the OS before it ends, without "
    "freeing its engine") {
  testing::TempDir dir;
  ServeProcess server;
  server.Start(dir / "data");
  auto source = OpenGeneratorSource({"tiny", 1.0, 3, ""});
  REQUIRE_OK(source);
  auto target = MakeRemoteTarget(server.address());
  REQUIRE_OK(target);
  CatalogSchema schema = (*source)->schema();
  schema.name = "warming";
  REQUIRE_OK((*target)->CreateCatalog(schema));
  auto brands = (*source)->OpenCollection("Brand");
  REQUIRE_OK(brands);
  Entity entity;
  int upserted = 0;
  for (; upserted < 5 && *(*brands)->Next(&entity); ++upserted) {
    UpsertReceipt receipt;
    REQUIRE_OK((*target)->Upsert(entity, &receipt));
  }
  target->reset();
  // A few small records stay in the engine's write buffer until the engine
  // is flushed or destroyed; serve no longer destroys it on the way out.
  const CliResult stopped = server.Stop();
  CHECK(stopped.exit_code == 0);
  auto engine = Engine::Open(dir / "data");
  REQUIRE_OK(engine);
  auto catalog = (*engine)->GetCatalog("warming");
  REQUIRE_OK(catalog);
  CHECK((*catalog)->state() == CatalogState::kWarmingUp);
  auto count = (*catalog)->Count("Brand");
  REQUIRE_OK(count);
  CHECK(*count == upserted);
}

TEST_CASE(
    "warmup export: a catalog published into warmup serve comes back as the same snapshot (regression: "
    "reflected references were exported)") {
  testing::TempDir dir;
  ServeProcess server;
  server.Start(dir / "data");
  const std::string address = server.address();

  auto original = GenerateSnapshot({"tiny", 1.0, 5, ""}, dir / "pristine", {});
  REQUIRE_OK(original);
  auto source = OpenSnapshotSource(*original);
  auto target = MakeRemoteTarget(address);
  CopyOptions copy;
  copy.target_catalog = "published";
  REQUIRE_OK(RunCopy(**source, **target, copy));

  const std::string exported = dir / "exported";
  const std::string zip = dir / "exported.zip";
  const CliResult export_run = RunCli({"export", "--source", "grpc://" + address + "/published", "--out",
                                       exported, "--zip", zip, "--page-size", "7", "--compress", "zstd"});
  CHECK_MESSAGE(export_run.exit_code == 0, export_run.output);
  auto want = InspectSnapshot(*original);
  auto got = InspectSnapshot(zip);
  REQUIRE_OK(want);
  REQUIRE_MESSAGE(got.ok(), got.status().ToString());
  CHECK(got->catalog == "published");
  CHECK(got->provenance.at("exported_from") == "grpc://" + address + "/published");
  REQUIRE(got->collections.size() == want->collections.size());
  for (size_t i = 0; i < want->collections.size(); ++i) {
    const auto& w = want->collections[i];
    const auto& g = got->collections[i];
    CAPTURE(w.entity_type);
    CHECK(g.entity_type == w.entity_type);
    CHECK(g.count == w.count);
    CHECK(g.global_attributes == w.global_attributes);
    CHECK(g.localized_attributes == w.localized_attributes);
    CHECK(g.prices == w.prices);
    CHECK(g.associated_data_bytes == w.associated_data_bytes);
    // Reflected references are not exported (the engine rebuilds them);
    // the generator writes random ones to prove that copies ignore them.
    auto want_references = w.references;
    for (const auto& [name, reference] : (*source)->schema().FindEntity(w.entity_type)->references) {
      if (reference.is_reflected()) {
        CHECK(g.references.at(name) == 0);
        want_references[name] = 0;
      }
    }
    CHECK(g.references == want_references);
  }
  // A missing catalog and a load reading the live catalog directly.
  const CliResult absent = RunCli({"export", "--source", "grpc://" + address + "/absent", "--out", exported});
  CHECK(absent.exit_code == 1);
  CHECK(absent.output.find("catalog absent does not exist") != std::string::npos);
  CHECK(RunCli({"load", "--source", "grpc://" + address + "/published", "--target", "null"}).exit_code == 0);

  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE("warmup reindex: starts the server, loads, stops it, reports its usage, exits 0") {
  testing::TempDir dir;
  auto snapshot = GenerateSnapshot({"tiny", 1.0, 4, ""}, dir / "pristine", {});
  REQUIRE_OK(snapshot);
  const std::string pristine = dir / "pristine";
  const std::string work = dir / "work";
  // --server-binary: the loader of one build can drive the server of another (here, the same one).
  const CliResult run = RunCli({"reindex", "--pristine-dir", pristine, "--work-dir", work, "--server-binary",
                                WARMUP_CLI_PATH, "--run", "rx"});
  const std::string& output = run.output;
  CHECK_MESSAGE(run.exited, output);
  CHECK_MESSAGE(run.exit_code == 0, output);
  CHECK(output.find("verification: VERIFIED") != std::string::npos);
  CHECK(output.find("of which server") != std::string::npos);
  // The server's usage as data (wait4), no longer its own stop line read back.
  CHECK(output.find("  server               user ") != std::string::npos);
  CHECK(output.find("server data: ") != std::string::npos);
  CHECK(output.find("  server process       warmup serve ") != std::string::npos);
  CHECK(output.find("exited 0") != std::string::npos);
  CHECK(output.substr(output.rfind("RUN_STATUS")) == "RUN_STATUS=MEASUREMENT-DONE-rx\n");
}

}  // namespace
}  // namespace warmup
