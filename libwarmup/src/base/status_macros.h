// Early-return helpers for Status-returning code inside libwarmup.
// Internal: not part of the public API.
#ifndef WARMUP_SRC_COMMON_STATUS_MACROS_H_
#define WARMUP_SRC_COMMON_STATUS_MACROS_H_

#include "warmup/status.h"

#define WARMUP_CONCAT_INNER_(a, b) a##b
#define WARMUP_CONCAT_(a, b) WARMUP_CONCAT_INNER_(a, b)

// Returns the Status of `expr` from the enclosing function when it is not OK.
#define WARMUP_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::warmup::Status warmup_status_ = (expr);        \
    if (!warmup_status_.ok()) return warmup_status_; \
  } while (false)

// Evaluates `expr` (a StatusOr<T>); on error returns its Status, else moves the
// value into `lhs`, which may be a declaration such as `auto x`.
#define WARMUP_ASSIGN_OR_RETURN(lhs, expr) \
  WARMUP_ASSIGN_OR_RETURN_IMPL_(WARMUP_CONCAT_(warmup_statusor_, __LINE__), lhs, expr)
#define WARMUP_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()

#endif  // WARMUP_SRC_COMMON_STATUS_MACROS_H_
