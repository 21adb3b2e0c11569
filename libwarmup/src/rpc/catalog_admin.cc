#include "warmup/catalog_admin.h"

#include <chrono>
#include <ctime>

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
