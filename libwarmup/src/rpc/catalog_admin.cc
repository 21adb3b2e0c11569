#include "warmup/catalog_admin.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <thread>

#include "rpc/client.h"

namespace warmup {
namespace {

// "2026-12-07T02:15:00Z": a moment a server named, in UTC.
std::string UtcText(int64_t epoch_seconds) {
  const std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  if (::gmtime_r(&t, &tm) == nullptr) return "";
  char text[32];
  return std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm) > 0 ? text : "";
}

}  // namespace

StatusOr<std::vector<ServerCatalog>> ListServerCatalogs(const std::string& address,
                                                        const ServerAdminOptions& options) {
  auto connected = rpc::EvitaClient::Connect(address, options.tls, options.call_timeout_seconds);
  if (!connected.ok()) return connected.status();
  const rpc::EvitaClient& client = *connected;
  pb::GrpcCatalogNamesResponse names;
  if (Status s = client.Call("GetCatalogNames on " + address, "",
                             [&](auto* context) {
                               return client.evita().GetCatalogNames(context, google::protobuf::Empty(),
                                                                     &names);
                             });
      !s.ok()) {
    return s;
  }
  std::vector<ServerCatalog> catalogs;
  for (const std::string& name : names.catalognames()) {
    pb::GrpcGetCatalogStateRequest request;
    request.set_catalogname(name);
    pb::GrpcGetCatalogStateResponse state;
    if (Status s = client.Call(
            "GetCatalogState of " + name, "",
            [&](auto* context) { return client.evita().GetCatalogState(context, request, &state); });
        !s.ok()) {
      return s;
    }
    catalogs.push_back(
        {name, state.has_catalogstate() ? pb::GrpcCatalogState_Name(state.catalogstate()) : "?"});
  }
  return catalogs;
}

StatusOr<ServerBackup> BackupServerCatalog(const std::string& address, const std::string& catalog,
                                           const std::string& out_path, int timeout_seconds,
                                           const ServerAdminOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  // Made first, exclusively: an existing file is never touched, and this one
  // is removed again on any failure below.
  const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    return errno == EEXIST ? AlreadyExistsError(out_path + " already exists")
                           : UnavailableError("cannot create " + out_path + ": " + std::strerror(errno));
  }
  bool written = false;
  struct Cleanup {
    int fd;
    const std::string& path;
    const bool& keep;
    ~Cleanup() {
      if (fd >= 0) ::close(fd);
      if (!keep) std::remove(path.c_str());
    }
  } cleanup{fd, out_path, written};

  auto connected = rpc::EvitaClient::Connect(address, options.tls, options.call_timeout_seconds);
  if (!connected.ok()) return connected.status();
  const rpc::EvitaClient& client = *connected;
  // evitaDB refuses FullBackupCatalog on a read-only session (ReadOnlyException).
  auto session = client.OpenSession(catalog, /*read_write=*/true);
  if (!session.ok()) return session.status();
  const auto start = Clock::now();
  pb::GrpcFullBackupCatalogResponse started;
  Status call = client.Call("FullBackupCatalog of " + catalog, *session, [&](auto* context) {
    return client.session().FullBackupCatalog(context, google::protobuf::Empty(), &started);
  });
  (void)client.CloseSession(*session);  // tidying up: the task runs on without it
  if (!call.ok()) return call;
  pb::GrpcTaskStatus task = started.taskstatus();
  const auto deadline = start + std::chrono::seconds(timeout_seconds);
  while (task.simplifiedstate() != pb::TASK_FINISHED && task.simplifiedstate() != pb::TASK_FAILED) {
    if (Clock::now() >= deadline) {
      return Status(StatusCode::kDeadlineExceeded,
                    "the backup of " + catalog + " on " + address + " had not finished within " +
                        std::to_string(timeout_seconds) + " s: the server's task was " +
                        pb::GrpcTaskSimplifiedState_Name(task.simplifiedstate()) + " at " +
                        std::to_string(task.progress()) + " %");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    pb::GrpcTaskStatusRequest request;
    *request.mutable_taskid() = task.taskid();
    pb::GrpcTaskStatusResponse response;
    if (Status s = client.Call(
            "GetTaskStatus of the backup of " + catalog, "",
            [&](auto* context) { return client.management().GetTaskStatus(context, request, &response); });
        !s.ok()) {
      return s;
    }
    task = response.taskstatus();
  }
  if (task.simplifiedstate() == pb::TASK_FAILED || !task.has_file()) {
    return FailedPreconditionError("the server's backup of " + catalog + " failed: " +
                                   (task.has_exception() ? task.exception().value() : "it named no file"));
  }
  ServerBackup backup;
  backup.path = out_path;
  backup.server_file = task.file().name();
  backup.backup_seconds = since(start);

  const auto fetch_start = Clock::now();
  pb::GrpcFetchFileRequest request;
  *request.mutable_fileid() = task.file().fileid();
  // What is left of the one budget the backup and its download share.
  const auto left = std::chrono::ceil<std::chrono::seconds>(deadline - Clock::now()).count();
  auto context = client.Context("", static_cast<int>(std::max<int64_t>(1, left)));
  auto stream = client.management().FetchFile(context.get(), request);
  pb::GrpcFetchFileResponse chunk;
  int64_t announced = task.file().totalsizeinbytes();
  while (stream->Read(&chunk)) {
    announced = chunk.totalsizeinbytes();
    const std::string& bytes = chunk.filecontents();
    for (size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0) return UnavailableError("cannot write " + out_path + ": " + std::strerror(errno));
      done += static_cast<size_t>(n);
    }
    backup.bytes += static_cast<int64_t>(bytes.size());
  }
  if (Status s = rpc::FromGrpc(stream->Finish(), "FetchFile of " + task.file().name()); !s.ok()) return s;
  if (backup.bytes != announced) {
    return DataLossError("FetchFile of " + task.file().name() + " gave " + std::to_string(backup.bytes) +
                         " bytes, the server announced " + std::to_string(announced));
  }
  if (::fsync(fd) != 0) return UnavailableError("cannot sync " + out_path + ": " + std::strerror(errno));
  backup.fetch_seconds = since(fetch_start);
  written = true;
  return backup;
}

Status DeleteServerCatalog(const std::string& address, const std::string& name,
                           const ServerAdminOptions& options) {
  auto connected = rpc::EvitaClient::Connect(address, options.tls, options.call_timeout_seconds);
  if (!connected.ok()) return connected.status();
  const rpc::EvitaClient& client = *connected;
  pb::GrpcDeleteCatalogIfExistsRequest request;
  request.set_catalogname(name);
  pb::GrpcDeleteCatalogIfExistsResponse response;
  if (Status s = client.Call(
          "DeleteCatalogIfExists of " + name, "",
          [&](auto* context) { return client.evita().DeleteCatalogIfExists(context, request, &response); });
      !s.ok()) {
    return s;
  }
  if (!response.success()) return NotFoundError("no catalog " + name + " on " + address);
  return OkStatus();
}

StatusOr<ServerIdentity> CheckServerReady(const std::string& address, const ServerAdminOptions& options) {
  auto connected = rpc::EvitaClient::Connect(address, options.tls, options.call_timeout_seconds);
  if (!connected.ok()) return connected.status();
  const rpc::EvitaClient& client = *connected;
  pb::GrpcReadyResponse ready;
  if (Status s = client.Call(
          "IsReady on " + address, "",
          [&](auto* context) { return client.evita().IsReady(context, google::protobuf::Empty(), &ready); });
      !s.ok()) {
    // A server that wants TLS will not become ready for a plaintext probe.
    if (s.code() == StatusCode::kFailedPrecondition) return s;
    return UnavailableError(s.message());
  }
  if (!ready.ready()) return UnavailableError(address + " answers IsReady: not ready");
  ServerIdentity identity;
  identity.address = address;
  pb::GrpcEvitaServerStatusResponse status;
  auto context = client.Context();
  const ::grpc::Status answered =
      client.management().ServerStatus(context.get(), google::protobuf::Empty(), &status);
  if (answered.error_code() == ::grpc::StatusCode::UNIMPLEMENTED) {  // IsReady is all it has
    identity.readiness_probed = false;
    return identity;
  }
  if (!answered.ok())
    return UnavailableError(rpc::FromGrpc(answered, "ServerStatus on " + address).message());
  identity.version = status.version();
  identity.instance_id = status.instanceid();
  if (status.has_startedat()) identity.started_at = UtcText(status.startedat().timestamp().seconds());
  identity.readiness = pb::GrpcReadiness_Name(status.readiness());
  if (status.readiness() == pb::API_UNKNOWN) {
    identity.readiness_probed = false;  // IsReady said yes; nothing else was probed
  } else if (status.readiness() != pb::API_READY) {
    return UnavailableError(address + " is up but not ready: ServerStatus says " + identity.readiness);
  }
  return identity;
}

StatusOr<LatencyStats> MeasureRoundTrips(const std::string& address, int calls, int warm_up_calls,
                                         const ServerAdminOptions& options) {
  if (calls < 1)
    return InvalidArgumentError("round trips: calls must be 1 or more, not " + std::to_string(calls));
  auto connected = rpc::EvitaClient::Connect(address, options.tls, options.call_timeout_seconds);
  if (!connected.ok()) return connected.status();
  const rpc::EvitaClient& client = *connected;
  std::vector<int64_t> samples_ns;
  samples_ns.reserve(static_cast<size_t>(calls));
  for (int i = 0; i < warm_up_calls + calls; ++i) {
    pb::GrpcReadyResponse ready;
    const auto start = std::chrono::steady_clock::now();
    if (Status s = client.Call("IsReady on " + address, "",
                               [&](auto* context) {
                                 return client.evita().IsReady(context, google::protobuf::Empty(), &ready);
                               });
        !s.ok()) {
      return s;
    }
    const auto end = std::chrono::steady_clock::now();
    if (i >= warm_up_calls)
      samples_ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
  }
  return ComputeLatencyStats(samples_ns);
}

}  // namespace warmup
