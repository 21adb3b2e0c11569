// warmup serve as a process: start-up header, a remote copy into it, SIGTERM.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "common/temp_dir.h"
#include "warmup/copy_engine.h"
#include "warmup/generator.h"
#include "warmup/remote_target.h"
#include "warmup/snapshot.h"

namespace warmup {
namespace {

// Reads from `fd` until `pattern` matches what was read, or the pipe closes.
std::string ReadUntil(int fd, const std::regex& pattern, std::smatch* match, std::string* seen) {
  char buffer[512];
  while (!std::regex_search(*seen, *match, pattern)) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n <= 0) break;
    seen->append(buffer, static_cast<size_t>(n));
  }
  return *seen;
}

TEST_CASE("warmup serve: header with pid and port, a remote load into it, clean shutdown on SIGTERM") {
  testing::TempDir dir;
  int out[2];
  REQUIRE(::pipe(out) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::close(out[0]);
    const std::string data = dir / "data";
    ::execl(WARMUP_CLI_PATH, "warmup", "serve", "--data-dir", data.c_str(), "--listen", "127.0.0.1:0",
            nullptr);
    ::_exit(127);
  }
  ::close(out[1]);
  std::string seen;
  std::smatch header;
  ReadUntil(out[0], std::regex("pid (\\d+), listening on port (\\d+)"), &header, &seen);
  REQUIRE_MESSAGE(header.size() == 3, seen);
  CHECK(std::stoi(header[1]) == child);
  CHECK(seen.find("memory limit") != std::string::npos);

  auto source = OpenGeneratorSource({"tiny", 1.0, 2, ""});
  auto target = MakeRemoteTarget("127.0.0.1:" + header[2].str());
  auto result = RunCopy(**source, **target, {});
  REQUIRE(result.ok());
  CHECK(result->ExitCode() == 0);

  REQUIRE(::kill(child, SIGTERM) == 0);
  std::smatch stopped;
  ReadUntil(out[0], std::regex("stopped: user .* peak RSS .* page faults .* context switches"), &stopped,
            &seen);
  CHECK_MESSAGE(!stopped.empty(), seen);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  ::close(out[0]);
}

// Runs WARMUP_CLI_PATH with `args`, returns its exit status (-1 if it did not exit).
int RunCli(const std::vector<std::string>& args) {
  const pid_t child = ::fork();
  if (child == 0) {
    std::vector<char*> argv{const_cast<char*>("warmup")};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(WARMUP_CLI_PATH, argv.data());
    ::_exit(127);
  }
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TEST_CASE(
    "warmup export: a catalog published into warmup serve comes back as the same snapshot (regression: "
    "reflected references were exported)") {
  testing::TempDir dir;
  int out[2];
  REQUIRE(::pipe(out) == 0);
  const pid_t server = ::fork();
  REQUIRE(server >= 0);
  if (server == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::close(out[0]);
    const std::string data = dir / "data";
    ::execl(WARMUP_CLI_PATH, "warmup", "serve", "--data-dir", data.c_str(), "--listen", "127.0.0.1:0",
            nullptr);
    ::_exit(127);
  }
  ::close(out[1]);
  std::string seen;
  std::smatch header;
  ReadUntil(out[0], std::regex("pid (\\d+), listening on port (\\d+)"), &header, &seen);
  REQUIRE_MESSAGE(header.size() == 3, seen);
  const std::string address = "127.0.0.1:" + header[2].str();

  auto original = GenerateSnapshot({"tiny", 1.0, 5, ""}, dir / "pristine", {});
  REQUIRE(original.ok());
  auto source = OpenSnapshotSource(*original);
  auto target = MakeRemoteTarget(address);
  CopyOptions copy;
  copy.target_catalog = "published";
  REQUIRE(RunCopy(**source, **target, copy).ok());

  const std::string exported = dir / "exported";
  const std::string zip = dir / "exported.zip";
  CHECK(RunCli({"export", "--source", "grpc://" + address + "/published", "--out", exported, "--zip", zip,
                "--page-size", "7", "--compress", "zstd"}) == 0);
  auto want = InspectSnapshot(*original);
  auto got = InspectSnapshot(zip);
  REQUIRE(want.ok());
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
  CHECK(RunCli({"export", "--source", "grpc://" + address + "/absent", "--out", exported}) == 1);
  CHECK(RunCli({"load", "--source", "grpc://" + address + "/published", "--target", "null"}) == 0);

  REQUIRE(::kill(server, SIGTERM) == 0);
  int status = 0;
  REQUIRE(::waitpid(server, &status, 0) == server);
  CHECK(WIFEXITED(status));
  ::close(out[0]);
}

TEST_CASE("warmup reindex: starts the server, loads, stops it, reports its usage, exits 0") {
  testing::TempDir dir;
  auto snapshot = GenerateSnapshot({"tiny", 1.0, 4, ""}, dir / "pristine", {});
  REQUIRE(snapshot.ok());
  const std::string pristine = dir / "pristine";
  const std::string work = dir / "work";
  // --server-binary: the loader of one build can drive the server of another (here, the same one).
  const std::string command = std::string(WARMUP_CLI_PATH) + " reindex --pristine-dir " + pristine +
                              " --work-dir " + work + " --server-binary " + WARMUP_CLI_PATH +
                              " --run rx 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof(buffer), pipe)) output.append(buffer, n);
  const int status = ::pclose(pipe);
  CHECK_MESSAGE(WEXITSTATUS(status) == 0, output);
  CHECK(output.find("verification: VERIFIED") != std::string::npos);
  CHECK(output.find("of which server") != std::string::npos);
  CHECK(output.find("warmup serve stopped: user") != std::string::npos);
  CHECK(output.find("server data: ") != std::string::npos);
  CHECK(output.substr(output.rfind("RUN_STATUS")) == "RUN_STATUS=MEASUREMENT-DONE-rx\n");
}

}  // namespace
}  // namespace warmup
