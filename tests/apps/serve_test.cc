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

// `warmup serve` on a free port of 127.0.0.1, its stdout read through a pipe.
// Start() has REQUIREd the header; the destructor ends the child if a test
// failed before Stop().
struct ServeProcess {
  pid_t pid = -1;
  int out = -1;
  std::string seen;       // stdout so far
  int reported_pid = -1;  // from the header
  std::string address;    // 127.0.0.1:<port from the header>

  void Start(const std::string& data_dir) {
    int pipe_fds[2];
    REQUIRE(::pipe(pipe_fds) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(pipe_fds[1], STDOUT_FILENO);
      ::close(pipe_fds[0]);
      ::execl(WARMUP_CLI_PATH, "warmup", "serve", "--data-dir", data_dir.c_str(), "--listen", "127.0.0.1:0",
              nullptr);
      ::_exit(127);
    }
    ::close(pipe_fds[1]);
    out = pipe_fds[0];
    std::smatch header;
    ReadUntil(out, std::regex("pid (\\d+), listening on port (\\d+)"), &header, &seen);
    REQUIRE_MESSAGE(header.size() == 3, seen);
    reported_pid = std::stoi(header[1]);
    address = "127.0.0.1:" + header[2].str();
  }
  // SIGTERM; reads stdout to its end into `seen`, then returns the exit
  // status as waitpid reports it.
  int Stop() {
    REQUIRE(::kill(pid, SIGTERM) == 0);
    char buffer[512];
    for (ssize_t n; (n = ::read(out, buffer, sizeof(buffer))) > 0;)
      seen.append(buffer, static_cast<size_t>(n));
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    pid = -1;
    return status;
  }
  ~ServeProcess() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
    if (out >= 0) ::close(out);
  }
};

TEST_CASE("warmup serve: header with pid and port, a remote load into it, clean shutdown on SIGTERM") {
  testing::TempDir dir;
  ServeProcess server;
  server.Start(dir / "data");
  CHECK(server.reported_pid == server.pid);
  CHECK(server.seen.find("memory limit") != std::string::npos);

  auto source = OpenGeneratorSource({"tiny", 1.0, 2, ""});
  auto target = MakeRemoteTarget(server.address);
  auto result = RunCopy(**source, **target, {});
  REQUIRE(result.ok());
  CHECK(result->ExitCode() == 0);

  const int status = server.Stop();
  CHECK_MESSAGE(std::regex_search(server.seen,
                                  std::regex("stopped: user .* peak RSS .* page faults .* context switches")),
                server.seen);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
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
  ServeProcess server;
  server.Start(dir / "data");
  const std::string address = server.address;

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

  CHECK(WIFEXITED(server.Stop()));
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
