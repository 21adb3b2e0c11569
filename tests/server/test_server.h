// An in-process warmup server for the tests (a free port on 127.0.0.1), and
// raw evitaDB sessions on any server, for what the targets and sources do not do.
#ifndef WARMUP_TESTS_SERVER_TEST_SERVER_H_
#define WARMUP_TESTS_SERVER_TEST_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "codec/pb.h"
#include "common/status_matchers.h"
#include "warmup/server.h"

namespace warmup::testing {

// Starts a server on `data_dir` with `options` (its data_dir and listen are
// set here), REQUIRE-ing that it started.
inline std::unique_ptr<Server> StartServer(const std::string& data_dir, ServerOptions options = {}) {
  options.data_dir = data_dir;
  options.listen = "127.0.0.1:0";
  auto server = Server::Start(options);
  REQUIRE_MESSAGE(server.ok(), server.status().ToString());
  return std::move(server).value();
}

// "127.0.0.1:<port>" of `server`.
inline std::string Address(const Server& server) { return "127.0.0.1:" + std::to_string(server.port()); }

// Opens a session on `catalog` at `address` as evitaDB's clients do,
// REQUIRE-ing that it opens; returns its id.
inline std::string OpenSession(const std::string& address, const std::string& catalog, bool read_write) {
  auto evita =
      pb::EvitaService::NewStub(::grpc::CreateChannel(address, ::grpc::InsecureChannelCredentials()));
  ::grpc::ClientContext context;
  pb::GrpcEvitaSessionRequest open;
  open.set_catalogname(catalog);
  pb::GrpcEvitaSessionResponse opened;
  REQUIRE_OK(read_write ? evita->CreateReadWriteSession(&context, open, &opened)
                        : evita->CreateReadOnlySession(&context, open, &opened));
  return opened.sessionid();
}

// One call in `session` (GetCatalogState): OK, or what the server answered
// instead (UNAUTHENTICATED once the session is closed).
inline ::grpc::StatusCode CallInSession(const std::string& address, const std::string& session) {
  auto stub =
      pb::EvitaSessionService::NewStub(::grpc::CreateChannel(address, ::grpc::InsecureChannelCredentials()));
  ::grpc::ClientContext context;
  context.AddMetadata("sessionid", session);
  pb::GrpcCatalogStateResponse response;
  return stub->GetCatalogState(&context, google::protobuf::Empty(), &response).error_code();
}

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_SERVER_TEST_SERVER_H_
