// warmup: the command-line front end. Parses, calls libwarmup, prints, exits.
// Exit status: 0 done, 1 failed (the message says what and where), 64 a
// wrong command line; a run's own statuses are in docs/measurement.md.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "common/options.h"
#include "common/run_command.h"
#include "warmup/catalog_admin.h"
#include "warmup/generator.h"
#include "warmup/grpc_source.h"
#include "warmup/html_report.h"
#include "warmup/server_storage.h"
#include "warmup/snapshot.h"
#include "warmup/source_server.h"
#include "warmup/version.h"

int Serve(const std::vector<std::string>& args);    // serve.cc
int Load(const std::vector<std::string>& args);     // common/run_command.cc
int Reindex(const std::vector<std::string>& args);  // reindex.cc
int Ab(const std::vector<std::string>& args);       // ab.cc
int Bench(const std::vector<std::string>& args);    // bench.cc
int History(const std::vector<std::string>& args);  // history.cc

namespace {

// On a terminal, one progress line per collection written, e.g. "generated".
void ShowProgress(warmup::SnapshotWriteOptions& write, const std::string& verb) {
  if (!isatty(STDERR_FILENO)) return;
  write.on_collection_written = [verb](const std::string& type, int64_t count, double seconds) {
    std::fprintf(stderr, "  %s %10lld %-20s in %7.1f s\n", verb.c_str(), static_cast<long long>(count),
                 type.c_str(), seconds);
  };
}

// Says where the snapshot went and zips it when asked.
int FinishSnapshot(const warmup::StatusOr<std::string>& path, const std::optional<std::string>& zip_path) {
  if (!path.ok()) return FailWith(path.status());
  std::cout << "wrote " << *path << "\n";
  if (zip_path) {
    if (auto s = warmup::ZipSnapshot(*path, *zip_path); !s.ok()) return FailWith(s);
    std::cout << "wrote " << *zip_path << "\n";
  }
  return 0;
}

int Generate(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseGenerate(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  if (cmd->zip_path) {
    if (auto s = warmup::CheckOutputFile("--zip", *cmd->zip_path, false); !s.ok()) return FailWith(s);
  }
  ShowProgress(cmd->write, "generated");
  return FinishSnapshot(warmup::GenerateSnapshot(cmd->generator, cmd->out_dir, cmd->write), cmd->zip_path);
}

int Export(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseExport(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  if (cmd->zip_path) {
    if (auto s = warmup::CheckOutputFile("--zip", *cmd->zip_path, false); !s.ok()) return FailWith(s);
  }
  // A catalog folder: read through a server started on a copy of it, stopped after the export.
  std::unique_ptr<warmup::SourceServer> server;
  if (!cmd->folder.server.command.empty()) {
    auto started = warmup::SourceServer::Start(cmd->folder, warmup::cli::CliSpecNames(), cmd->folder.work_dir,
                                               {{"--out", cmd->out_dir}});
    if (!started.ok()) return FailWith(started.status());
    server = std::move(started).value();
    cmd->address = server->address();
    cmd->catalog = server->catalog();
  }
  auto source = warmup::OpenGrpcSource(cmd->address, cmd->catalog, cmd->source);
  if (!source.ok()) return FailWith(source.status());
  cmd->write.provenance = {{"exported_from", (cmd->source.tls.enabled ? "grpcs://" : "grpc://") +
                                                 cmd->address + "/" + cmd->catalog},
                           {"source", (*source)->Describe()}};
  if (server != nullptr) {
    cmd->write.provenance["exported_from"] = server->origin();
    for (const auto& [key, value] : server->Provenance()) cmd->write.provenance[key] = value;
  }
  for (const auto& [key, value] : (*source)->Provenance()) cmd->write.provenance[key] = value;
  ShowProgress(cmd->write, "exported");
  auto written = warmup::WriteSnapshot(**source, cmd->out_dir, cmd->write);
  if (server != nullptr) {
    server->Stop(/*after_failure=*/!written.ok());
    if (!written.ok()) {
      written = warmup::Status(written.status().code(), server->FailureMessage(written.status().message()));
    } else {
      std::cout << "the source: " << server->Describe() << "\n";
    }
  }
  const int exit_code = FinishSnapshot(written, cmd->zip_path);
  for (const auto& [what, count] : (*source)->OmittedValues()) {
    std::cout << "not exported: " << count << " value" << (count == 1 ? "" : "s") << " of " << what
              << " (an own attribute of a reflected reference; the manifest records it, and a load from this "
                 "snapshot says so)\n";
  }
  return exit_code;
}

int Inspect(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseInspect(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  auto info = warmup::InspectSnapshot(cmd->path);
  if (!info.ok()) {
    // Not a snapshot: say what it is when it is a server's own storage, and which flags read it.
    const std::string storage = warmup::DescribeServerStorage(cmd->path, warmup::cli::CliSpecNames());
    if (storage.empty()) return FailWith(info.status());
    return FailWith(warmup::Status(info.status().code(), info.status().message() + "; it is " + storage));
  }
  std::cout << (cmd->json ? warmup::SnapshotInfoToJson(*info) : warmup::SnapshotInfoToText(*info));
  return 0;
}

int Unpack(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseUnpack(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  // A server's backup is told apart by its entries alone; anything else is
  // an export, whose errors say what is wrong with it.
  auto backup = warmup::ReadServerBackupZip(cmd->zip_path);
  if (backup.ok()) {
    auto folder =
        warmup::UnpackServerBackupZip(cmd->zip_path, cmd->catalog, cmd->out_dir, warmup::cli::CliSpecNames());
    if (!folder.ok()) return FailWith(folder.status());
    std::cout << "unpacked " << *folder << ", a catalog folder of "
              << warmup::StorageServerName(backup->server)
              << "'s (every entry's CRC checked; its content is not verified until a server reads it)\n"
              << "it is " << warmup::DescribeServerStorage(*folder, warmup::cli::CliSpecNames()) << "\n";
    return 0;
  }
  // --catalog chooses among a backup's folders: this zip was refused as one.
  if (!cmd->catalog.empty()) return FailWith(backup.status());
  auto path = warmup::UnpackSnapshot(cmd->zip_path, cmd->out_dir);
  if (!path.ok() && path.status().code() == warmup::StatusCode::kInvalidArgument &&
      backup.status().code() == warmup::StatusCode::kInvalidArgument) {
    // Refused as both: say why for each, that neither reason hides the other.
    return FailWith(warmup::InvalidArgumentError("neither a warmup export (" + path.status().message() +
                                                 ") nor a server's backup zip (" + backup.status().message() +
                                                 ")"));
  }
  if (!path.ok()) return FailWith(path.status());
  std::cout << "unpacked and verified " << *path << "\n";
  return 0;
}

int Catalogs(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseCatalogs(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  if (!cmd->backup_name.empty()) {
    auto backup = warmup::BackupServerCatalog(cmd->address, cmd->backup_name, cmd->backup_out,
                                              cmd->backup_timeout_seconds, cmd->admin);
    if (!backup.ok()) return FailWith(backup.status());
    std::printf(
        "fetched the full backup of %s into %s: %lld bytes (the server's %s, which it keeps); backup %.1f s, "
        "download %.1f s\n",
        cmd->backup_name.c_str(), backup->path.c_str(), static_cast<long long>(backup->bytes),
        backup->server_file.c_str(), backup->backup_seconds, backup->fetch_seconds);
    const std::string what = warmup::DescribeServerStorage(backup->path, warmup::cli::CliSpecNames());
    std::cout << (what.empty() ? "it is no catalog folder warmup knows the layout of" : "it is " + what)
              << "\n";
    return 0;
  }
  for (const std::string& name : cmd->delete_names) {
    if (auto s = warmup::DeleteServerCatalog(cmd->address, name, cmd->admin); !s.ok()) {
      return FailWith(s);
    }
    std::cout << "deleted " << name << "\n";
  }
  if (!cmd->delete_names.empty()) return 0;
  auto catalogs = warmup::ListServerCatalogs(cmd->address, cmd->admin);
  if (!catalogs.ok()) return FailWith(catalogs.status());
  for (const auto& c : *catalogs) std::printf("%-40s %s\n", c.name.c_str(), c.state.c_str());
  if (catalogs->empty()) std::cout << "no catalogs on " << cmd->address << "\n";
  return 0;
}

int Compare(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseCompare(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  if (auto s = warmup::CheckOutputFile("--json", cmd->json_out, true); !s.ok()) return FailWith(s);
  if (auto s = warmup::CheckOutputFile("--html", cmd->html_out, true); !s.ok()) return FailWith(s);
  auto comparison = warmup::CompareRuns(cmd->a_files, cmd->b_files, cmd->noise_files, cmd->options);
  if (!comparison.ok()) return FailWith(comparison.status());
  for (const auto& [flag, path, text] :
       {std::tuple{"--json", cmd->json_out, &warmup::RenderComparisonJson},
        std::tuple{"--html", cmd->html_out, &warmup::RenderComparisonHtml}}) {
    if (path.empty()) continue;
    std::ofstream out(path, std::ios::trunc);
    out << text(*comparison);
    out.close();
    if (!out)
      return FailWith(warmup::FailedPreconditionError(std::string("cannot write ") + flag + " " + path));
  }
  std::cout << warmup::RenderComparisonText(*comparison);
  return comparison->ExitCode();
}

int Version(const std::vector<std::string>&) {
  std::cout << "warmup " << warmup::Version() << "\n"
            << "evitaDB gRPC protocol: " << warmup::ProtocolDescription() << "\n";
  return 0;
}

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

// The commands, in the order the usage lists them.
constexpr Command kCommands[] = {
    {"reindex", "one command, one number: start warmup serve, load over gRPC, goLive, verify, stop, report",
     Reindex},
    {"serve", "host the embedded engine behind evitaDB's gRPC protocol (attach a profiler here)", Serve},
    {"load",
     "copy a snapshot into a fresh catalog of a target, timed, then goLive, verify, report\n"
     "             exit 0 = verified, 2 = figures stand but counts unknown, 1 = failed (docs/measurement.md)",
     Load},
    {"export", "read a live catalog over gRPC (evitaDB or warmup serve) into a snapshot, optionally zipped",
     Export},
    {"generate", "write a deterministic synthetic catalog (see --profile) as a snapshot", Generate},
    {"inspect", "verify a snapshot or export and show its collections, sizes and per-entity averages",
     Inspect},
    {"unpack",
     "unzip an export into a pristine snapshot directory, verifying every checksum, or a server's backup "
     "zip\n"
     "             into a catalog folder (docs/evitadb.md)",
     Unpack},
    {"catalogs",
     "list a server's catalogs and their states, --delete some (e.g. a killed load's), or --backup one into "
     "a "
     "zip",
     Catalogs},
    {"compare",
     "is build B faster than A? run reports (--report-json) of each, per metric a test, an interval, a "
     "verdict\n"
     "             exit 0 = no regression, 3 = a regression, 4 = inconclusive (too few runs), 1 = error "
     "(docs/comparing.md)",
     Compare},
    {"ab",
     "interleaved reindex runs of server builds A and B (fresh server each), then compare: --a BIN --b BIN\n"
     "             exit 0 = no regression, 3 = a regression, 4 = inconclusive, 1 = error (docs/comparing.md)",
     Ab},
    {"bench",
     "the write path's table in one sitting: null, embedded and started-server runs, round trip, disk\n"
     "             exit 0 = every run verified, 1 = a run failed, 3 = a target not met with "
     "--require-targets",
     Bench},
    {"history",
     "the runs warmup remembers: record reports, show a series, find its change points (--history on runs)\n"
     "             changes: exit 0 = no regression, 3 = the newest change point a regression, 4 = too few "
     "runs "
     "(docs/history.md)",
     History},
    {"version", "print the version and the evitaDB protocol this build speaks", Version},
};

std::string Usage() {
  std::string usage =
      "usage: warmup <command> [options]     (warmup <command> --help for its options)\n\n"
      "Measures how long publishing an evitaDB catalog takes.\n\ncommands:\n";
  for (const Command& c : kCommands) {
    char name[16];
    std::snprintf(name, sizeof(name), "  %-11s", c.name);
    usage += name + std::string(c.summary) + "\n";
  }
  usage +=
      "\nexit status: a run's own (0, 1, 2), a comparison's (0, 3, 4), or 64 when the command line is "
      "wrong\n";
  return usage;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << Usage();
    return kExitUsage;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "help" || command == "--help" || command == "-h") {
    std::cout << Usage();
    return 0;
  }
  if (command == "--version") return Version(args);
  for (const Command& c : kCommands) {
    if (command == c.name) return c.run(args);
  }
  std::cerr << "warmup: unknown command '" << command << "'\n\n" << Usage();
  return kExitUsage;
}
