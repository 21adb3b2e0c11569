// The warmup binary as a user runs it: every command, and every exit status of
// docs/measurement.md (0 verified, 2 counts unknown, 1 failed) from the real
// process, with faults injected into a real `warmup serve`.
#include <grpcpp/grpcpp.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "apps/cli.h"
#include "common/temp_dir.h"
#include "rpc/pb.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using testing::CliResult;
using testing::RunCli;
using testing::ServeProcess;
using testing::TempDir;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> Files(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = ReadText(e.path().string());
  }
  return out;
}

// `warmup generate --profile tiny` into DIR/pristine; returns DIR/pristine.
std::string GenerateTiny(const TempDir& dir, const std::string& seed = "1") {
  const std::string pristine = dir / "pristine";
  const CliResult run = RunCli({"generate", "--profile", "tiny", "--seed", seed, "--out", pristine});
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  return pristine;
}

// The catalog's state as the server reports it; "MISSING" when it does not exist.
std::string CatalogState(const std::string& address, const std::string& catalog) {
  auto channel = ::grpc::CreateChannel(address, ::grpc::InsecureChannelCredentials());
  auto evita = rpc::pb::EvitaService::NewStub(channel);
  ::grpc::ClientContext context;
  rpc::pb::GrpcGetCatalogStateRequest request;
  request.set_catalogname(catalog);
  rpc::pb::GrpcGetCatalogStateResponse response;
  REQUIRE(evita->GetCatalogState(&context, request, &response).ok());
  return response.has_catalogstate() ? rpc::pb::GrpcCatalogState_Name(response.catalogstate()) : "MISSING";
}

TEST_CASE("warmup version, help, no command and an unknown command") {
  const CliResult version = RunCli({"version"});
  CHECK(version.exit_code == 0);
  CHECK(version.output.rfind("warmup ", 0) == 0);
  CHECK(Contains(version.output, "evitaDB gRPC protocol: "));
  CHECK(RunCli({"--version"}).output == version.output);
  for (const std::vector<std::string>& help : {std::vector<std::string>{"help"}, {"--help"}, {"-h"}, {}}) {
    const CliResult run = RunCli(help);
    CHECK(run.exit_code == 0);
    CHECK(Contains(run.output, "usage: warmup <command>"));
  }
  const CliResult unknown = RunCli({"publish"});
  CHECK(unknown.exit_code == 1);
  CHECK(Contains(unknown.output, "warmup: unknown command 'publish'"));
  const CliResult sub_help = RunCli({"load", "--help"});
  CHECK(sub_help.exit_code == 0);
  CHECK(Contains(sub_help.output, "--pristine-dir"));
  const CliResult bad_flag = RunCli({"load", "--pristine-dir", "/nonexistent", "--frobnicate"});
  CHECK(bad_flag.exit_code == 1);
  CHECK(Contains(bad_flag.output, "frobnicate"));
}

TEST_CASE("generate with --seed and --zip, then inspect (text, JSON, zip) and unpack, as a user runs them") {
  TempDir dir;
  const CliResult generated = RunCli({"generate", "--profile", "tiny", "--seed", "3", "--out", dir / "a",
                                      "--zip", dir / "a.zip", "--compress", "zstd"});
  REQUIRE_MESSAGE(generated.exit_code == 0, generated.output);
  CHECK(Contains(generated.output, "wrote " + dir / "a/tiny"));
  CHECK(Contains(generated.output, "wrote " + dir / "a.zip"));
  REQUIRE(RunCli({"generate", "--profile", "tiny", "--seed", "3", "--out", dir / "b", "--compress", "zstd"})
              .exit_code == 0);
  REQUIRE(RunCli({"generate", "--profile", "tiny", "--seed", "4", "--out", dir / "c", "--compress", "zstd"})
              .exit_code == 0);
  // --seed reaches the generator: the same seed gives the same bytes, another seed other bytes.
  CHECK(Files(dir / "a/tiny") == Files(dir / "b/tiny"));
  CHECK(Files(dir / "a/tiny") != Files(dir / "c/tiny"));

  const CliResult text = RunCli({"inspect", dir / "a/tiny"});
  CHECK(text.exit_code == 0);
  CHECK(Contains(text.output, "checksums verified"));
  CHECK(Contains(text.output, "Product"));
  const CliResult json = RunCli({"inspect", dir / "a.zip", "--json"});
  REQUIRE_MESSAGE(json.exit_code == 0, json.output);
  auto parsed = nlohmann::json::parse(json.output);
  CHECK(parsed["total_count"] == 300);
  CHECK(parsed["catalog"] == "tiny");
  const CliResult other = RunCli({"inspect", dir / "c/tiny", "--json"});
  CHECK(nlohmann::json::parse(other.output)["fingerprint"] != parsed["fingerprint"]);

  const CliResult unpacked = RunCli({"unpack", dir / "a.zip", dir / "unpacked"});
  REQUIRE_MESSAGE(unpacked.exit_code == 0, unpacked.output);
  CHECK(Contains(unpacked.output, "unpacked and verified " + dir / "unpacked/tiny"));
  CHECK(Files(dir / "unpacked/tiny") == Files(dir / "a/tiny"));
  const CliResult again = RunCli({"unpack", dir / "a.zip", dir / "unpacked"});
  CHECK(again.exit_code == 1);
  CHECK(Contains(again.output, "exists"));

  // Damage one byte: inspect names the file and fails.
  std::string product;
  for (const auto& e : fs::directory_iterator(dir / "b/tiny/collections")) {
    if (e.path().filename().string().find("Product") != std::string::npos) product = e.path().string();
  }
  REQUIRE_FALSE(product.empty());
  fs::resize_file(product, fs::file_size(product) - 10);
  const CliResult damaged = RunCli({"inspect", dir / "b/tiny"});
  CHECK(damaged.exit_code == 1);
  CHECK(Contains(damaged.output, product));
  CHECK(RunCli({"inspect", dir / "nothing-here"}).exit_code == 1);
}

TEST_CASE("warmup load: exit 0 for a verified copy, with --report-json and --per-entity-csv written") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const CliResult run =
      RunCli({"load", "--pristine-dir", pristine, "--target", "embedded", "--work-dir", dir / "work",
              "--report-json", dir / "run.json", "--per-entity-csv", dir / "rows.csv", "--run", "cli"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(Contains(run.output, "verification: VERIFIED"));
  CHECK(run.output.substr(run.output.rfind("RUN_STATUS")) == "RUN_STATUS=MEASUREMENT-DONE-cli\n");
  auto json = nlohmann::json::parse(ReadText(dir / "run.json"));
  CHECK(json["exit_code"] == 0);
  CHECK(json["run_label"] == "cli");
  CHECK(json["copied"] == 300);
  CHECK(json["target"].get<std::string>().find(dir / "work") != std::string::npos);
  std::ifstream rows(dir / "rows.csv");
  std::string line;
  int count = -1;  // the header
  while (std::getline(rows, line)) ++count;
  CHECK(count == 300);
}

TEST_CASE("warmup load: exit 1 when the snapshot ends early, naming the file, with the figures printed") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  std::string product;
  for (const auto& e : fs::directory_iterator(pristine + "/tiny/collections")) {
    if (e.path().filename().string().find("Product") != std::string::npos) product = e.path().string();
  }
  REQUIRE_FALSE(product.empty());
  fs::resize_file(product, fs::file_size(product) / 2);
  const CliResult run = RunCli({"load", "--pristine-dir", pristine, "--target", "null", "--report-json",
                                dir / "run.json", "--run", "short"});
  CHECK(run.exited);
  CHECK(run.exit_code == 1);
  CHECK(Contains(run.output, "ABORTED: "));
  CHECK(Contains(run.output, product));
  CHECK(Contains(run.output, "FAILED"));
  CHECK(run.output.substr(run.output.rfind("RUN_STATUS")) == "RUN_STATUS=MEASUREMENT-DONE-short\n");
  auto json = nlohmann::json::parse(ReadText(dir / "run.json"));
  CHECK(json["exit_code"] == 1);
  CHECK(json["abort_error"].get<std::string>().find(product) != std::string::npos);
}

TEST_CASE("warmup load --target remote: exit 2 when the counts cannot be read after goLive") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  ServeProcess server;
  server.Start(dir / "data", {"--inject-fault", "GetEntityCollectionSize"});
  CHECK(Contains(server.output(), "testing aid: GetEntityCollectionSize fails after 0 calls"));
  const CliResult run = RunCli({"load", "--pristine-dir", pristine, "--target", "remote", "--address",
                                server.address(), "--target-catalog", "unknown_counts"});
  CHECK_MESSAGE(run.exit_code == 2, run.output);
  CHECK(Contains(run.output, "injected fault: GetEntityCollectionSize"));
  CHECK(Contains(run.output, "COMPLETENESS UNPROVEN"));
  CHECK(Contains(run.output, "TOTAL"));
  // Exit 2 is no failure: the published catalog stays.
  CHECK(CatalogState(server.address(), "unknown_counts") == "ALIVE");

  // reindex --address uses this server instead of starting one, and says the same.
  const CliResult reindex = RunCli({"reindex", "--pristine-dir", pristine, "--address", server.address(),
                                    "--target-catalog", "reindexed"});
  CHECK_MESSAGE(reindex.exit_code == 2, reindex.output);
  CHECK_FALSE(Contains(reindex.output, "warmup serve stopped"));
  CHECK(CatalogState(server.address(), "reindexed") == "ALIVE");
  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE("warmup load --target remote: exit 1 when goLive fails, and the catalog is dropped unless kept") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  ServeProcess server;
  server.Start(dir / "data", {"--inject-fault", "GoLiveAndClose"});
  const CliResult run = RunCli({"load", "--pristine-dir", pristine, "--target", "remote", "--address",
                                server.address(), "--target-catalog", "dropped"});
  CHECK_MESSAGE(run.exit_code == 1, run.output);
  CHECK(Contains(run.output, "*** CLIENT-SIDE FAILURE ***"));
  CHECK(Contains(run.output, "injected fault: GoLiveAndClose"));
  CHECK(Contains(run.output, "TOTAL                not stated"));
  CHECK(CatalogState(server.address(), "dropped") == "MISSING");

  const CliResult kept = RunCli({"load", "--pristine-dir", pristine, "--target", "remote", "--address",
                                 server.address(), "--target-catalog", "kept", "--keep-target"});
  CHECK(kept.exit_code == 1);
  CHECK(CatalogState(server.address(), "kept") == "WARMING_UP");
  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE("warmup load --target remote: exit 1 when the server fails mid-load, with the figures so far") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  ServeProcess server;
  server.Start(dir / "data", {"--inject-fault", "UpsertEntity@50"});
  const CliResult run = RunCli({"load", "--pristine-dir", pristine, "--target", "remote", "--address",
                                server.address(), "--report-json", dir / "run.json"});
  CHECK_MESSAGE(run.exit_code == 1, run.output);
  CHECK(Contains(run.output, "ABORTED: "));
  CHECK(Contains(run.output, "injected fault: UpsertEntity"));
  auto json = nlohmann::json::parse(ReadText(dir / "run.json"));
  CHECK(json["copied"] == 50);
  CHECK(json["golive"]["outcome"] == "not_attempted");
  CHECK(json["target_dropped"] == true);
  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE("--golive-timeout reaches the remote target: a slow goLive is a client-side failure, exit 1") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  ServeProcess server;
  server.Start(dir / "data", {"--golive-delay-ms", "2500"});
  const CliResult run = RunCli({"load", "--pristine-dir", pristine, "--target", "remote", "--address",
                                server.address(), "--golive-timeout", "1", "--max-per-collection", "5"});
  CHECK_MESSAGE(run.exit_code == 1, run.output);
  CHECK(Contains(run.output, "*** CLIENT-SIDE FAILURE ***"));
  CHECK(Contains(run.output, "DEADLINE_EXCEEDED"));
  CHECK(Contains(run.output, "server-side: the catalog became ALIVE"));
  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE("warmup reindex --target-mode embedded publishes into --work-dir without starting a server") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const CliResult run = RunCli(
      {"reindex", "--pristine-dir", pristine, "--target-mode", "embedded", "--work-dir", dir / "work"});
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  CHECK(Contains(run.output, "verification: VERIFIED"));
  CHECK(Contains(run.output, "embedded"));
  CHECK_FALSE(Contains(run.output, "warmup serve stopped"));
  CHECK(fs::exists(dir / "work"));
}

TEST_CASE("warmup reindex with a server binary that cannot start: exit 1 naming the binary") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const CliResult run = RunCli(
      {"reindex", "--pristine-dir", pristine, "--work-dir", dir / "work", "--server-binary", "/bin/false"});
  CHECK(run.exit_code == 1);
  CHECK(Contains(run.output, "the server /bin/false did not start"));
}

TEST_CASE("warmup serve --session-idle-seconds closes an idle session: UNAUTHENTICATED") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  ServeProcess server;
  server.Start(dir / "data", {"--session-idle-seconds", "1"});
  REQUIRE(RunCli({"load", "--pristine-dir", pristine, "--target", "remote", "--address", server.address(),
                  "--target-catalog", "idle", "--max-per-collection", "3"})
              .exit_code == 0);
  auto channel = ::grpc::CreateChannel(server.address(), ::grpc::InsecureChannelCredentials());
  auto evita = rpc::pb::EvitaService::NewStub(channel);
  auto session = rpc::pb::EvitaSessionService::NewStub(channel);
  rpc::pb::GrpcEvitaSessionResponse opened;
  {
    ::grpc::ClientContext context;
    rpc::pb::GrpcEvitaSessionRequest open;
    open.set_catalogname("idle");
    REQUIRE(evita->CreateReadOnlySession(&context, open, &opened).ok());
  }
  auto state = [&] {
    ::grpc::ClientContext context;
    context.AddMetadata("sessionid", opened.sessionid());
    rpc::pb::GrpcCatalogStateResponse response;
    return session->GetCatalogState(&context, google::protobuf::Empty(), &response).error_code();
  };
  CHECK(state() == ::grpc::StatusCode::OK);
  std::this_thread::sleep_for(std::chrono::milliseconds(2200));
  CHECK(state() == ::grpc::StatusCode::UNAUTHENTICATED);
  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE("warmup serve refuses a fault on an RPC it cannot fail, naming the known ones") {
  const CliResult run = RunCli({"serve", "--data-dir", "unused", "--inject-fault", "Frobnicate@3"});
  CHECK(run.exit_code == 1);
  CHECK(Contains(run.output, "--inject-fault: no RPC 'Frobnicate' to fail (known: UpsertEntity,"));
  CHECK_FALSE(fs::exists("unused"));
}

}  // namespace
}  // namespace warmup
