#include "rpc/client.h"

namespace warmup::rpc {

Status FromGrpc(const ::grpc::Status& s, const std::string& call) {
  if (s.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(s.error_code()), call + ": " + s.error_message());
}

std::shared_ptr<::grpc::Channel> OpenChannel(const std::string& address) {
  ::grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  return ::grpc::CreateCustomChannel(address, ::grpc::InsecureChannelCredentials(), args);
}

}  // namespace warmup::rpc
