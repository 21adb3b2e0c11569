// Status in test output: doctest prints a Status as its ToString(), and
// REQUIRE_OK / CHECK_OK print the error a call returned, not just "false".
#ifndef WARMUP_TESTS_COMMON_STATUS_MATCHERS_H_
#define WARMUP_TESTS_COMMON_STATUS_MATCHERS_H_

#include <doctest/doctest.h>

#include "warmup/status.h"

namespace doctest {
template <>
struct StringMaker<warmup::Status> {
  static String convert(const warmup::Status& status) { return status.ToString().c_str(); }
};
}  // namespace doctest

namespace warmup::testing {

inline Status StatusOf(const Status& status) { return status; }
template <typename T>
Status StatusOf(const StatusOr<T>& value) {
  return value.status();
}
// A grpc::Status (found by its members, so this header needs no gRPC).
template <typename GrpcStatus>
auto StatusOf(const GrpcStatus& status) -> decltype(status.error_message(), Status()) {
  if (status.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(status.error_code()), status.error_message());
}

}  // namespace warmup::testing

// REQUIRE_OK(call) / CHECK_OK(call): `call` yields a Status or a StatusOr; on
// failure the message is its Status.
#define REQUIRE_OK(expr)                                                       \
  do {                                                                         \
    const ::warmup::Status warmup_status_ = ::warmup::testing::StatusOf(expr); \
    REQUIRE_MESSAGE(warmup_status_.ok(), warmup_status_);                      \
  } while (false)
#define CHECK_OK(expr)                                                         \
  do {                                                                         \
    const ::warmup::Status warmup_status_ = ::warmup::testing::StatusOf(expr); \
    CHECK_MESSAGE(warmup_status_.ok(), warmup_status_);                        \
  } while (false)

#endif  // WARMUP_TESTS_COMMON_STATUS_MATCHERS_H_
