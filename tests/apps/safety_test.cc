// What a suspicious user must be able to trust, through the real binary:
// nothing deleted that warmup did not make, no result that looks more whole
// than it is, and a printed verdict that always equals the exit status.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "apps/cli.h"
#include "common/temp_dir.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using testing::CliResult;
using testing::Contains;
using testing::GenerateTiny;
using testing::ReadText;
using testing::RunCli;
using testing::TempDir;
using testing::TinyAndServer;

// The verdict line of a text report: "verdict: ... (exit N)...".
std::string VerdictLine(const std::string& output) {
  const size_t at = output.rfind("\nverdict: ");
  if (at == std::string::npos) return "";
  return output.substr(at + 1, output.find('\n', at + 1) - at - 1);
}

// A load's own files must not be in its work directory, and a user's files
// there must survive every run.
TEST_CASE("regression: a --pristine-dir inside a marker-owned --work-dir was deleted before it was read") {
  TempDir dir;
  const std::string work = dir / "work";
  REQUIRE(RunCli({"generate", "--profile", "tiny", "--out", work + "/pristine"}).exit_code == 0);
  std::ofstream(work + "/.warmup-workdir") << "an earlier run's marker\n";
  const CliResult run = RunCli({"load", "--pristine-dir", work + "/pristine", "--work-dir", work});
  CHECK(run.exit_code == 1);
  CHECK_MESSAGE(
      Contains(run.output, "--pristine-dir " + work + "/pristine lies inside the work directory " + work),
      run.output);
  CHECK(Contains(run.output, "nothing was run"));
  CHECK(fs::exists(work + "/pristine/tiny/manifest.json"));
}

TEST_CASE(
    "regression: a second load with --work-dir . deleted the first's --report-json and --html and a user's "
    "notes.txt") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const std::string work = dir / "work";
  // Reports inside the directory warmup clears are refused before anything runs, naming both paths.
  const CliResult inside =
      RunCli({"load", "--pristine-dir", pristine, "--work-dir", work, "--report-json", work + "/r1.json"});
  CHECK(inside.exit_code == 1);
  CHECK_MESSAGE(
      Contains(inside.output, "--report-json " + work + "/r1.json lies inside the work directory " + work),
      inside.output);
  CHECK_FALSE(fs::exists(work + "/r1.json"));
  // A first run; then the user leaves a file in the work directory; a second run clears only the
  // first run's catalog.
  REQUIRE(RunCli({"load", "--pristine-dir", pristine, "--work-dir", work, "--target-catalog", "first",
                  "--report-json", dir / "r1.json", "--html", dir / "r1.html"})
              .exit_code == 0);
  REQUIRE(fs::exists(work + "/first"));
  std::ofstream(work + "/notes.txt") << "mine";
  fs::create_directories(work + "/photos");
  std::ofstream(work + "/photos/a.jpg") << "jpeg";
  const CliResult second = RunCli({"load", "--pristine-dir", pristine, "--work-dir", work, "--target-catalog",
                                   "second", "--report-json", dir / "r2.json"});
  REQUIRE_MESSAGE(second.exit_code == 0, second.output);
  CHECK_FALSE(fs::exists(work + "/first"));  // warmup's own, from the run before
  CHECK(fs::exists(work + "/second"));
  CHECK(ReadText(work + "/notes.txt") == "mine");
  CHECK(ReadText(work + "/photos/a.jpg") == "jpeg");
  CHECK(fs::file_size(dir / "r1.json") > 0);
  CHECK(fs::file_size(dir / "r1.html") > 0);
}

TEST_CASE(
    "regression: warmup serve that could not bind left its new data directory behind with a lock file") {
  TempDir dir;
  const int holder = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(holder >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(holder, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
  REQUIRE(::listen(holder, 1) == 0);
  socklen_t length = sizeof(address);
  REQUIRE(::getsockname(holder, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  const std::string port = std::to_string(ntohs(address.sin_port));
  const CliResult run = RunCli({"serve", "--data-dir", dir / "data", "--listen", "127.0.0.1:" + port});
  ::close(holder);
  CHECK(run.exit_code == 1);
  CHECK_FALSE(fs::exists(dir / "data"));
  // A data directory the user made is theirs: it stays.
  fs::create_directories(dir / "mine");
  const int again = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(::bind(again, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
  REQUIRE(::listen(again, 1) == 0);
  CHECK(RunCli({"serve", "--data-dir", dir / "mine", "--listen", "127.0.0.1:" + port}).exit_code == 1);
  ::close(again);
  CHECK(fs::is_directory(dir / "mine"));
}

TEST_CASE(
    "regression: Ctrl-C on reindex was recorded as target_failed and 'could NOT be dropped', now "
    "interrupted, "
    "the catalog dropped, every collection expected") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  int out = -1;
  // 300 upserts of 20 ms: the interrupt lands in the load.
  const pid_t reindex =
      testing::SpawnCli({"reindex", "--pristine-dir", pristine, "--work-dir", dir / "work", "--server-args",
                         "--upsert-delay-ms 20", "--report-json", dir / "run.json", "--run", "cut"},
                        &out);
  // Some upserts in: the data directory has its catalog, and a second has passed.
  for (int i = 0; i < 300 && !fs::exists(dir / "work/data/.warmup-workdir"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  REQUIRE(::kill(reindex, SIGINT) == 0);
  const CliResult run = testing::AwaitCli(reindex, out);
  REQUIRE(run.exited);
  CHECK(run.exit_code == 1);
  CHECK_MESSAGE(Contains(run.output, "ABORTED (interrupted): interrupted after "), run.output);
  CHECK(Contains(run.output, "the partial target catalog was dropped"));
  CHECK_FALSE(Contains(run.output, "could NOT be dropped"));
  CHECK(VerdictLine(run.output)
            .rfind("verdict: INTERRUPTED: a partial run; do not quote these figures (exit 1)", 0) == 0);
  CHECK(Contains(run.output, "goLive n/a, no goLive"));  // never measured, so not "0.0 MB"
  const auto json = nlohmann::json::parse(ReadText(dir / "run.json"));
  CHECK(json["abort_reason"] == "interrupted");
  CHECK(json["target_drop"]["outcome"] == "dropped");
  CHECK(json["exit_code"] == 1);
  CHECK(json["server_process"]["peak_rss_golive_bytes"].is_null());
  // expected is the whole source's (tiny: 300 entities), not the collections reached.
  CHECK(json["expected"] == 300);
  CHECK(json["copied"].get<int>() < 300);
  bool unreached = false;
  for (const auto& c : json["collections"]) unreached = unreached || !c["reached"].get<bool>();
  CHECK(unreached);
}

TEST_CASE("regression: the null target reported VERIFIED although it stored nothing") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const CliResult run =
      RunCli({"load", "--pristine-dir", pristine, "--target", "null", "--report-json", dir / "run.json"});
  CHECK(run.exit_code == 0);
  CHECK_FALSE(Contains(run.output, "VERIFIED"));
  CHECK(Contains(run.output, "verification: NOT APPLICABLE"));
  CHECK(Contains(VerdictLine(run.output), "nothing was verified"));
  const auto json = nlohmann::json::parse(ReadText(dir / "run.json"));
  CHECK(json["verification"]["outcome"] == "not_applicable");
}

TEST_CASE("regression: a --report-json that could not be written printed '(exit 0)' and exited 1") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  for (const char* flag : {"--report-json", "--html"}) {
    CAPTURE(flag);
    std::vector<std::string> args = {"load", "--pristine-dir", pristine, "--target", "null",
                                     flag,   "/dev/full"};
    if (flag == std::string("--html")) args.insert(args.end(), {"--report-json", dir / "run.json"});
    const CliResult run = RunCli(args);
    CHECK(run.exit_code == 1);
    CHECK_MESSAGE(Contains(VerdictLine(run.output), "(exit 1)"), run.output);
    CHECK(Contains(run.output, "OUTPUT FAILED: cannot write " + std::string(flag) + " /dev/full"));
    if (flag == std::string("--html")) {  // the report that was written says so too
      const auto json = nlohmann::json::parse(ReadText(dir / "run.json"));
      CHECK(json["exit_code"] == 1);
      CHECK(json["output_error"].get<std::string>().find("--html /dev/full") != std::string::npos);
    }
  }
}

TEST_CASE_FIXTURE(
    TinyAndServer,
    "regression: a catalog name taken by a foreign directory in the server's data was reported as an entity "
    "rejected and dropped") {
  fs::create_directories(dir / "data/photos");
  std::ofstream(dir / "data/photos/a.jpg") << "jpeg";
  server.Start(dir / "data");
  const CliResult run = RunCli(RemoteLoad({"--target-catalog", "photos"}));
  CHECK(run.exit_code == 1);
  CHECK_MESSAGE(Contains(run.output, "name collision"), run.output);
  CHECK_FALSE(Contains(run.output, "rejected"));
  CHECK_FALSE(Contains(run.output, "dropped"));
  CHECK(ReadText(dir / "data/photos/a.jpg") == "jpeg");
  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE_FIXTURE(
    TinyAndServer,
    "regression: export of a WARMING_UP catalog wrote a 'verified' partial snapshot and exited 0") {
  server.Start(dir / "data", {"--inject-fault", "UpsertEntity@100"});
  const CliResult load = RunCli(RemoteLoad({"--target-catalog", "part", "--keep-target"}));
  REQUIRE(load.exit_code == 1);
  const CliResult refused =
      RunCli({"export", "--address", server.address(), "--catalog", "part", "--out", dir / "out"});
  CHECK(refused.exit_code == 1);
  CHECK_MESSAGE(Contains(refused.output, "is WARMING_UP, not ALIVE"), refused.output);
  CHECK_FALSE(fs::exists(dir / "out/part"));
  // On purpose it is exported, and the manifest says what it was.
  const CliResult allowed = RunCli({"export", "--address", server.address(), "--catalog", "part", "--out",
                                    dir / "out", "--allow-not-alive"});
  REQUIRE_MESSAGE(allowed.exit_code == 0, allowed.output);
  const auto manifest = nlohmann::json::parse(ReadText(dir / "out/part/manifest.json"));
  CHECK(manifest["provenance"]["source.catalog_state"] == "WARMING_UP");
  // A load from it carries the state into its report, as a caveat.
  const CliResult reload = RunCli({"load", "--pristine-dir", dir / "out", "--target", "null"});
  CHECK(Contains(reload.output, "the source catalog was WARMING_UP when it was read"));
  // And a live load from the catalog itself is refused the same way.
  const CliResult live =
      RunCli({"load", "--source", "grpc://" + server.address() + "/part", "--target", "null"});
  CHECK(live.exit_code == 1);
  CHECK(Contains(live.output, "is WARMING_UP, not ALIVE"));
  CHECK(server.Stop().exit_code == 0);
}

TEST_CASE("every run report records its configuration and command line (warmup-run/7)") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const CliResult run = RunCli({"load", "--pristine-dir", pristine, "--work-dir", dir / "work", "--compress",
                                "zstd", "--max-per-collection", "5", "--report-json", dir / "run.json"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const auto json = nlohmann::json::parse(ReadText(dir / "run.json"));
  CHECK(json["schema"] == "warmup-run/9");
  const auto& config = json["config"];
  CHECK(config["target_kind"] == "embedded");
  CHECK(config["compression"] == "zstd");
  CHECK(config["max_per_collection"] == 5);
  CHECK(config["dataset_provenance"]["generator.profile"] == "tiny");
  CHECK(config["command_line"] == nlohmann::json({"warmup", "load", "--pristine-dir", pristine, "--work-dir",
                                                  dir / "work", "--compress", "zstd", "--max-per-collection",
                                                  "5", "--report-json", dir / "run.json"}));
  CHECK(config["storage"]["path"] == fs::canonical(dir / "work").string());
  CHECK_FALSE(config["storage"]["filesystem"].get<std::string>().empty());
  CHECK(Contains(run.output, "records compressed: zstd"));
  CHECK(json["loader_pid"].get<int>() > 0);
  CHECK(json["first_upsert"]["us"].get<double>() > 0);
}

TEST_CASE(
    "regression: --server-command placeholders were not quoted: a work directory with a space broke it") {
  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  const std::string work = dir / "sp ace/it's w";
  const CliResult run =
      RunCli({"reindex", "--pristine-dir", pristine, "--work-dir", work, "--server-command",
              std::string(WARMUP_CLI_PATH) + " serve --data-dir {data} --listen 127.0.0.1:{port}",
              "--report-json", dir / "run.json"});
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  const auto json = nlohmann::json::parse(ReadText(dir / "run.json"));
  CHECK(json["server_process"]["data_dir"] == work + "/data");
  CHECK(fs::is_directory(work + "/data"));
}

TEST_CASE_FIXTURE(
    TinyAndServer,
    "regression: one upsert's 60 s deadline aborted a whole load, --upsert-timeout sets it and is named") {
  server.Start(dir / "data", {"--upsert-delay-ms", "2500"});
  const CliResult run = RunCli(RemoteLoad({"--upsert-timeout", "1", "--quiet"}));
  CHECK(run.exit_code == 1);
  CHECK_MESSAGE(Contains(run.output, "no answer within the upsert deadline of 1 s (--upsert-timeout)"),
                run.output);
  CHECK(Contains(run.output, "ABORTED (the target failed, not the entity)"));
  CHECK(server.Stop().exit_code == 0);
}

}  // namespace
}  // namespace warmup
