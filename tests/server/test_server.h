// An in-process warmup server for the rpc tests: a free port on 127.0.0.1.
#ifndef WARMUP_TESTS_RPC_TEST_SERVER_H_
#define WARMUP_TESTS_RPC_TEST_SERVER_H_

#include <doctest/doctest.h>

#include <memory>
#include <string>

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

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_RPC_TEST_SERVER_H_
