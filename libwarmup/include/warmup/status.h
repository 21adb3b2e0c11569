// Status and StatusOr<T>: how every libwarmup call reports success or failure.
//
// No exception crosses the library boundary. A call that can fail returns a
// Status (or a StatusOr<T> carrying its result); the code says what kind of
// failure it was and the message says what was wrong and where, e.g.
// "entity Product/17: attribute 'code': BigDecimal '1.2.3' does not parse".
#ifndef WARMUP_STATUS_H_
#define WARMUP_STATUS_H_

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace warmup {

// The kinds of failure. The numbers equal gRPC's canonical status codes, so a
// Status converts to and from a gRPC status without a lookup table.
enum class StatusCode : int {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

// Returns the canonical upper-case name of `code`, e.g. "INVALID_ARGUMENT".
std::string_view StatusCodeName(StatusCode code);

// The outcome of an operation: OK, or a code with a message.
// Thread-safety: a const Status may be read from any number of threads.
class [[nodiscard]] Status {
 public:
  // Constructs an OK status.
  Status() = default;
  // Constructs a status with `code` and `message`. An OK code drops the message.
  Status(StatusCode code, std::string message);

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Returns "OK" or "<CODE NAME>: <message>".
  std::string ToString() const;

  // Returns a copy whose message is prefixed with `context` and ": ", so that
  // errors raised deep inside a conversion name the path that led there.
  // An OK status is returned unchanged.
  Status WithContext(std::string_view context) const;

  friend bool operator==(const Status&, const Status&) = default;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
Status InvalidArgumentError(std::string message);
Status NotFoundError(std::string message);
Status AlreadyExistsError(std::string message);
Status FailedPreconditionError(std::string message);
Status OutOfRangeError(std::string message);
Status UnimplementedError(std::string message);
Status InternalError(std::string message);
Status UnavailableError(std::string message);
Status DataLossError(std::string message);

// Either a value of type T or a non-OK Status explaining why there is none.
// REQUIRES: a StatusOr is never constructed from an OK Status.
// Thread-safety: as for T.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(const Status& status) : state_(status) {  // NOLINT: implicit by design
    if (status.ok()) state_ = Status(StatusCode::kInternal, "StatusOr built from OK status");
  }
  StatusOr(Status&& status) : state_(std::move(status)) {  // NOLINT: implicit by design
    if (std::get<Status>(state_).ok()) {
      state_ = Status(StatusCode::kInternal, "StatusOr built from OK status");
    }
  }
  StatusOr(const T& value) : state_(value) {}        // NOLINT: implicit by design
  StatusOr(T&& value) : state_(std::move(value)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }

  // Returns OK when a value is present, else the error.
  Status status() const { return ok() ? Status() : std::get<Status>(state_); }

  // REQUIRES: ok().
  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<Status, T> state_;
};

}  // namespace warmup

#endif  // WARMUP_STATUS_H_
