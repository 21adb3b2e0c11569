#include "warmup/status.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"

#include "base/status_macros.h"

namespace warmup {
namespace {

StatusOr<int> Half(int n) {
  if (n % 2 != 0) return InvalidArgumentError(std::to_string(n) + " is odd");
  return n / 2;
}

StatusOr<int> Quarter(int n) {
  WARMUP_ASSIGN_OR_RETURN(int half, Half(n));
  WARMUP_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

TEST_CASE("Status carries code, message and context") {
  Status s = InvalidArgumentError("bad value").WithContext("attribute 'x'").WithContext("entity Product/1");
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.ToString() == "INVALID_ARGUMENT: entity Product/1: attribute 'x': bad value");
  CHECK_OK(OkStatus().WithContext("ignored"));
  CHECK(Status(StatusCode::kOk, "dropped").message().empty());
  CHECK(static_cast<int>(StatusCode::kUnauthenticated) == 16);  // gRPC's number
}

TEST_CASE("StatusOr propagates through the macros") {
  CHECK(*Quarter(8) == 2);
  auto odd = Quarter(6);
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.status().message() == "3 is odd");
  StatusOr<int> from_ok_status = OkStatus();
  CHECK_FALSE(from_ok_status.ok());
  CHECK(from_ok_status.status().code() == StatusCode::kInternal);
}

}  // namespace
}  // namespace warmup
