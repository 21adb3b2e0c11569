// warmup: the command-line front end. Parses, calls libwarmup, prints, exits.
// Exit status: 0 done, 1 failed (the message says what and where).
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <chrono>
#include <fstream>
#include <thread>

#include "common/options.h"
#include "warmup/catalog_target.h"
#include "warmup/engine.h"
#include "warmup/generator.h"
#include "warmup/remote_target.h"
#include "warmup/report.h"
#include "warmup/snapshot.h"
#include "warmup/version.h"
#include "warmup/work_dir.h"

int Serve(const std::vector<std::string>& args);  // serve.cc

namespace {

constexpr const char* kUsage =
    R"(usage: warmup <command> [options]     (warmup <command> --help for its options)

Measures how long publishing an evitaDB catalog takes.

commands:
  serve      host the embedded engine behind evitaDB's gRPC protocol (attach a profiler here)
  load       copy a snapshot into a fresh catalog of a target, timed, then goLive, verify, report
             exit 0 = verified, 2 = figures stand but counts unknown, 1 = failed (docs/measurement.md)
  generate   write a deterministic synthetic catalog (profile senesi or tiny) as a snapshot
  inspect    verify a snapshot or export and show its collections, sizes and per-entity averages
  unpack     unzip an export into a pristine snapshot directory, verifying every checksum
  version    print the version and the evitaDB protocol this build speaks
)";

int Fail(const warmup::Status& status) {
  if (status.code() == warmup::StatusCode::kCancelled) {  // --help
    std::cout << status.message() << "\n";
    return 0;
  }
  std::cerr << "warmup: " << status.ToString() << "\n";
  return 1;
}

int Generate(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseGenerate(args);
  if (!cmd.ok()) return Fail(cmd.status());
  if (isatty(STDERR_FILENO)) {
    cmd->write.on_collection_written = [](const std::string& type, int64_t count, double seconds) {
      std::fprintf(stderr, "  generated %10lld %-20s in %7.1f s\n", static_cast<long long>(count),
                   type.c_str(), seconds);
    };
  }
  auto path = warmup::GenerateSnapshot(cmd->generator, cmd->out_dir, cmd->write);
  if (!path.ok()) return Fail(path.status());
  std::cout << "wrote " << *path << "\n";
  if (cmd->zip_path) {
    if (auto s = warmup::ZipSnapshot(*path, *cmd->zip_path); !s.ok()) return Fail(s);
    std::cout << "wrote " << *cmd->zip_path << "\n";
  }
  return 0;
}

int Inspect(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseInspect(args);
  if (!cmd.ok()) return Fail(cmd.status());
  auto info = warmup::InspectSnapshot(cmd->path);
  if (!info.ok()) return Fail(info.status());
  std::cout << (cmd->json ? warmup::SnapshotInfoToJson(*info) : warmup::SnapshotInfoToText(*info));
  return 0;
}

int Unpack(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseUnpack(args);
  if (!cmd.ok()) return Fail(cmd.status());
  auto path = warmup::UnpackSnapshot(cmd->zip_path, cmd->out_dir);
  if (!path.ok()) return Fail(path.status());
  std::cout << "unpacked and verified " << *path << "\n";
  return 0;
}

int Load(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseLoad(args);
  if (!cmd.ok()) return Fail(cmd.status());
  auto source = warmup::OpenSnapshotSource(cmd->snapshot_path);
  if (!source.ok()) return Fail(source.status());
  std::unique_ptr<warmup::CatalogTarget> target;
  if (cmd->target == "embedded") {
    if (auto s = warmup::PrepareWorkDir(cmd->work_dir); !s.ok()) return Fail(s);
    warmup::EngineOptions options;
    options.compress = cmd->compress;
    auto embedded = warmup::MakeEmbeddedTarget(cmd->work_dir, options);
    if (!embedded.ok()) return Fail(embedded.status());
    target = std::move(embedded).value();
  } else if (cmd->target == "remote") {
    warmup::RemoteTargetOptions options;
    options.golive_timeout_seconds = cmd->golive_timeout_seconds;
    auto remote = warmup::MakeRemoteTarget(cmd->address, options);
    if (!remote.ok()) return Fail(remote.status());
    target = std::move(remote).value();
  } else {
    target = warmup::MakeNullTarget();
  }
  if (isatty(STDERR_FILENO)) {
    cmd->copy.on_progress = [](const warmup::CopyProgress& p) {
      std::fprintf(
          stderr,
          "  copied %10lld %-20s in %8.1f s (%7.2f us/entity)  |  cumulative %12lld entities, %8.1f s\n",
          static_cast<long long>(p.copied), p.entity_type.c_str(), p.seconds,
          p.copied > 0 ? p.seconds * 1e6 / static_cast<double>(p.copied) : 0.0,
          static_cast<long long>(p.cumulative_copied), p.cumulative_seconds);
    };
  }
  auto result = warmup::RunCopy(**source, *target, cmd->copy);
  if (!result.ok()) return Fail(result.status());
  if (!cmd->report_json.empty()) std::ofstream(cmd->report_json) << warmup::RenderJsonReport(*result);
  std::cout << warmup::RenderTextReport(*result) << std::flush;
  if (cmd->copy.hold_open_seconds > 0)
    std::this_thread::sleep_for(std::chrono::seconds(cmd->copy.hold_open_seconds));
  return result->ExitCode();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "help";
  const std::vector<std::string> args(argv + std::min(argc, 2), argv + argc);
  if (command == "load") return Load(args);
  if (command == "serve") return Serve(args);
  if (command == "generate") return Generate(args);
  if (command == "inspect") return Inspect(args);
  if (command == "unpack") return Unpack(args);
  if (command == "version" || command == "--version") {
    std::cout << "warmup " << warmup::Version() << "\n"
              << "evitaDB gRPC protocol: " << warmup::ProtocolDescription() << "\n";
    return 0;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << "warmup: unknown command '" << command << "'\n\n" << kUsage;
  return 1;
}
