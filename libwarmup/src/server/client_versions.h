// Which clientversion each method's calls carry, read off every call's
// initial metadata by a gRPC server interceptor before any service sees it
// (Server::ClientVersions). Internal to server/.
#ifndef WARMUP_SRC_SERVER_CLIENT_VERSIONS_H_
#define WARMUP_SRC_SERVER_CLIENT_VERSIONS_H_

#include <grpcpp/support/server_interceptor.h>

#include <map>
#include <set>
#include <string>

#include "base/mutex.h"

namespace warmup::server {

// Thread-safe: gRPC's threads record, any thread reads.
class ClientVersionLog {
 public:
  // Records `version` for the method named by the last part of `full_method`
  // ("/io.evitadb.externalApi.grpc.generated.EvitaSessionService/UpsertEntity").
  void Record(const std::string& full_method, std::string version);
  // Method name -> the versions its calls carried ("" for none).
  std::map<std::string, std::set<std::string>> Get() const;

 private:
  mutable Mutex mutex_;
  std::map<std::string, std::set<std::string>> versions_ GUARDED_BY(mutex_);
};

// Makes the interceptor that records each call into `log`, which must
// outlive the server.
class ClientVersionInterceptorFactory : public ::grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit ClientVersionInterceptorFactory(ClientVersionLog* log) : log_(log) {}
  ::grpc::experimental::Interceptor* CreateServerInterceptor(
      ::grpc::experimental::ServerRpcInfo* info) override;

 private:
  ClientVersionLog* log_;
};

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_CLIENT_VERSIONS_H_
