// Names that may become file or directory names. Internal.
#ifndef WARMUP_SRC_COMMON_NAMES_H_
#define WARMUP_SRC_COMMON_NAMES_H_

#include <string_view>

#include "warmup/names.h"

namespace warmup {

// True for a relative path of such components separated by '/'.
bool IsSafeRelativePath(std::string_view path);

}  // namespace warmup

#endif  // WARMUP_SRC_COMMON_NAMES_H_
