// Names that may become file or directory names. Internal.
#ifndef WARMUP_SRC_COMMON_NAMES_H_
#define WARMUP_SRC_COMMON_NAMES_H_

#include <string_view>

namespace warmup {

// True for a name usable as one directory component: [A-Za-z0-9._-]+, not "."
// or "..", at most 255 characters (catalog names, snapshot file names).
bool IsSafeName(std::string_view name);
// True for a relative path of such components separated by '/'.
bool IsSafeRelativePath(std::string_view path);

}  // namespace warmup

#endif  // WARMUP_SRC_COMMON_NAMES_H_
