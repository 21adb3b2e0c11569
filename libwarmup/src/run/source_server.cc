#include "warmup/source_server.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <utility>

#include "warmup/catalog_admin.h"
#include "warmup/server_process.h"
#include "warmup/server_storage.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;

// Until the server at `address` lists `catalog` ALIVE (a server opening a
// catalog from its storage lists it loading first, evitaDB's as
// BEING_ACTIVATED), by `deadline`.
Status WaitForAlive(const std::string& address, const std::string& catalog,
                    std::chrono::steady_clock::time_point deadline, const StopRequest* stop) {
  std::string last = "nothing yet";
  ServerAdminOptions admin;
  admin.call_timeout_seconds = 10;
  while (std::chrono::steady_clock::now() < deadline) {
    if (stop != nullptr && stop->requested()) {
      return FailedPreconditionError("stopped while the source server opened " + catalog +
                                     "; nothing was run");
    }
    auto listed = ListServerCatalogs(address, admin);
    if (!listed.ok()) {
      last = listed.status().ToString();
    } else {
      last = "no catalog " + catalog;
      for (const ServerCatalog& c : *listed) {
        if (c.name != catalog) continue;
        if (c.state == "ALIVE") return OkStatus();
        last = catalog + " " + c.state;
        if (c.state == "CORRUPTED") {
          return FailedPreconditionError(
              "the source server lists the catalog " + catalog +
              " CORRUPTED: it cannot open the folder (its log says why; for evitaDB one cause is a "
              "storage.compress other than the catalog was written with)");
        }
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return FailedPreconditionError("the source server did not list the catalog " + catalog +
                                 " ALIVE within the start timeout; it last said: " + last);
}

// Where the catalog came from: a folder, or a backup zip (with its SHA-256).
struct Origin {
  std::string path;
  std::string zip_sha256;  // empty for a folder
};

class StartedSourceServer : public SourceServer {
 public:
  StartedSourceServer(std::unique_ptr<ServerProcess> process, std::string catalog, Origin origin,
                      std::string copy, std::string command, std::string log)
      : process_(std::move(process)),
        catalog_(std::move(catalog)),
        origin_(std::move(origin)),
        copy_(std::move(copy)),
        command_(std::move(command)),
        log_(std::move(log)) {}

  std::string address() const override { return process_->address(); }
  std::string catalog() const override { return catalog_; }
  std::string origin() const override { return origin_.path; }
  std::string Describe() const override {
    const std::string what =
        origin_.zip_sha256.empty()
            ? "the catalog folder " + origin_.path + ", read through a server started on a copy of it"
            : "the backup zip " + origin_.path + " (catalog folder " + catalog_ +
                  "), read through a server started on it unpacked";
    std::string ended;
    if (stopped_) ended = "; " + (died_ ? "ended during the run: " + ended_ : ended_ + " after the run");
    return what + " in " + copy_ + " (" + command_ + ended + ")";
  }
  std::string FailureMessage(const std::string& message) const override {
    return (died_ ? DiedDuringRun() + "; " : "") + message + LogErrors();
  }
  std::string DiedDuringRun() const override {
    return died_ ? "the source server ended during the run (" + ended_ + ")" : "";
  }
  std::string LogErrors() const override {
    const std::string lines = LogEndsWith("the source server's", log_);
    return lines.empty() ? "" : "\n" + lines;
  }
  std::map<std::string, std::string> Provenance() const override {
    // The last -Dstorage.compress= of the command wins, as on a JVM's command line.
    std::string compress = "not set (evitaDB's default, false)";
    const std::string key = "-Dstorage.compress=";
    for (size_t at = command_.find(key); at != std::string::npos; at = command_.find(key, at + 1)) {
      const size_t end = command_.find_first_of(" '\"", at + key.size());
      compress = command_.substr(at + key.size(),
                                 end == std::string::npos ? std::string::npos : end - at - key.size());
    }
    std::map<std::string, std::string> provenance = {{"source.server_command", command_},
                                                     {"source.storage_compress", compress}};
    if (origin_.zip_sha256.empty()) {
      provenance["source.catalog_folder"] = origin_.path;
    } else {
      provenance["source.backup_zip"] = origin_.path;
      provenance["source.backup_zip_sha256"] = origin_.zip_sha256;
    }
    return provenance;
  }
  const ServerProcess& process() const override { return *process_; }
  ServerFigures Stop(bool after_failure) override {
    if (!stopped_) {
      // A server that died mid-read is seen to by its reader (the connection
      // closes) a moment before it is reaped as ended (a shell wrapper exits
      // after its child): after a failure, that moment is waited for.
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(after_failure ? 2 : 0);
      while (!(died_ = process_->HasEnded()) && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    ServerFigures figures = process_->Stop();
    stopped_ = true;
    ended_ = figures.ended;
    return figures;
  }

 private:
  std::unique_ptr<ServerProcess> process_;
  std::string catalog_;
  Origin origin_;
  std::string copy_, command_, log_;
  bool stopped_ = false, died_ = false;
  std::string ended_;
};

}  // namespace

StatusOr<std::unique_ptr<SourceServer>> SourceServer::Start(const ServerFolderSourceSpec& spec,
                                                            const SpecNames& names,
                                                            const std::string& work_dir,
                                                            const std::vector<PathInUse>& in_use,
                                                            const StopRequest* stop) {
  if (spec.server.command.empty()) {
    return InvalidArgumentError("a source server needs ServerFolderSourceSpec::server.command");
  }
  // A file is a backup zip; anything else is read as a storage directory.
  std::error_code ec;
  const bool zip = fs::is_regular_file(spec.folder, ec);
  Origin origin{spec.folder, ""};
  std::string catalog;
  if (zip) {
    auto backup = ReadServerBackupZip(spec.folder);
    if (!backup.ok()) return backup.status().WithContext(names.source_dir);
    auto chosen = ChooseServerCatalog(backup->catalogs, spec.catalog, spec.folder, names);
    if (!chosen.ok()) return chosen.status().WithContext(names.source_dir);
    catalog = *chosen;
  } else {
    auto folder = FindServerCatalogFolder(spec.folder, spec.catalog, names);
    if (!folder.ok()) return folder.status().WithContext(names.source_dir);
    origin.path = *folder;
    catalog = fs::path(*folder).filename().string();
  }
  if (auto s = PrepareWorkDir(work_dir, in_use); !s.ok()) {
    return s.WithContext("the source server's work directory");
  }
  for (const char* made : {"data", "server.log", "gc.log"}) {
    if (auto s = RecordInWorkDir(work_dir, made); !s.ok()) return s;
  }
  const fs::path data = fs::path(work_dir) / "data";
  fs::create_directories(data, ec);
  if (ec) return UnavailableError("cannot create " + data.string() + ": " + ec.message());
  if (zip) {
    auto sha256 = FileSha256(spec.folder);
    if (!sha256.ok()) return sha256.status();
    origin.zip_sha256 = *sha256;
    auto unpacked = UnpackServerBackupZip(spec.folder, catalog, data.string());
    if (!unpacked.ok()) return unpacked.status().WithContext("unpacking it for the source server");
    catalog = fs::path(*unpacked).filename().string();
  } else {
    fs::copy(origin.path, data / catalog, fs::copy_options::recursive, ec);
    if (ec) {
      return InternalError("cannot copy the catalog folder " + origin.path + " into " +
                           (data / catalog).string() + ": " + ec.message());
    }
  }
  ServerProcessOptions options;
  options.command = spec.server.command;
  options.data_dir = data.string();
  options.run_label = catalog + "-source";
  options.gc_log = (fs::path(work_dir) / "gc.log").string();
  options.xmx = spec.server.xmx;
  options.log = (fs::path(work_dir) / "server.log").string();
  options.start_timeout = std::chrono::seconds(spec.server.start_timeout_seconds);
  options.stop_grace = std::chrono::seconds(spec.server.stop_grace_seconds);
  const auto deadline = std::chrono::steady_clock::now() + options.start_timeout;
  auto process = ServerProcess::Start(options);
  if (!process.ok()) return process.status().WithContext("the source server");
  auto server = std::make_unique<StartedSourceServer>(std::move(process).value(), catalog, std::move(origin),
                                                      data.string(), spec.server.command, options.log);
  if (Status alive = WaitForAlive(server->address(), catalog, deadline, stop); !alive.ok()) {
    server->Stop(/*after_failure=*/false);  // it never opened the catalog: why is in the message
    return Status(alive.code(), alive.message() + server->LogErrors());
  }
  return std::unique_ptr<SourceServer>(std::move(server));
}

}  // namespace warmup
