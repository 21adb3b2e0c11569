#include "server/testing_aids.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"

namespace warmup::server {
namespace {

TEST_CASE("an injected fault lets the first calls of its method through and fails every later one") {
  ServerOptions options;
  options.faults = {{"Query", 2}, {"GetEntity", 0}};
  TestingAids aids(options);
  CHECK_OK(aids.Call("Query"));
  CHECK_OK(aids.Call("Query"));
  for (int i = 0; i < 3; ++i) {
    Status s = aids.Call("Query");
    CHECK(s.code() == StatusCode::kUnavailable);
    CHECK(s.message() == "injected fault: Query");
  }
  CHECK(aids.Call("GetEntity").code() == StatusCode::kUnavailable);
  CHECK_OK(aids.Call("UpsertEntity"));  // no fault on it
}

TEST_CASE("a fault on a method the server does not know, or with a negative count, is refused") {
  Status unknown = CheckFaults({{"Upsert", 1}});
  CHECK(unknown.code() == StatusCode::kInvalidArgument);
  CHECK(unknown.message() ==
        "cannot inject a fault into 'Upsert' (known: UpsertEntity, GetEntityCollectionSize, GoLiveAndClose, "
        "Query, "
        "GetEntity)");
  CHECK(CheckFaults({{"Query", -1}}).message() == "an injected fault's call count must not be negative");
  CHECK_OK(CheckFaults({{"GoLiveAndClose", 0}}));
}

}  // namespace
}  // namespace warmup::server
