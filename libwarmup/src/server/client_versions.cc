#include "server/client_versions.h"

namespace warmup::server {
namespace {

class ClientVersionInterceptor : public ::grpc::experimental::Interceptor {
 public:
  ClientVersionInterceptor(ClientVersionLog* log, std::string method)
      : log_(log), method_(std::move(method)) {}
  void Intercept(::grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            ::grpc::experimental::InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      std::string version;
      auto* metadata = methods->GetRecvInitialMetadata();
      if (auto it = metadata->find("clientversion"); it != metadata->end()) {
        version.assign(it->second.data(), it->second.size());
      }
      log_->Record(method_, std::move(version));
    }
    methods->Proceed();
  }

 private:
  ClientVersionLog* log_;
  std::string method_;
};

}  // namespace

void ClientVersionLog::Record(const std::string& full_method, std::string version) {
  const std::string method = full_method.substr(full_method.rfind('/') + 1);
  MutexLock lock(mutex_);
  versions_[method].insert(std::move(version));
}

std::map<std::string, std::set<std::string>> ClientVersionLog::Get() const {
  MutexLock lock(mutex_);
  return versions_;
}

::grpc::experimental::Interceptor* ClientVersionInterceptorFactory::CreateServerInterceptor(
    ::grpc::experimental::ServerRpcInfo* info) {
  return new ClientVersionInterceptor(log_, info->method());
}

}  // namespace warmup::server
