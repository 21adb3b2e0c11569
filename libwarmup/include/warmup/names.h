// Names that may become file or directory names: catalogs, run labels.
#ifndef WARMUP_NAMES_H_
#define WARMUP_NAMES_H_

#include <string>
#include <string_view>

#include "warmup/status.h"

namespace warmup {

// The longest name a directory component may have on the file systems warmup
// writes to.
inline constexpr size_t kMaxNameLength = 255;

// True for a name usable as one directory component: [A-Za-z0-9._-]+, not "."
// or "..", at most kMaxNameLength characters.
bool IsSafeName(std::string_view name);

// OK when IsSafeName(name); otherwise kInvalidArgument saying which rule
// `name` breaks (empty, too long with its length, a character that is not
// allowed, "." or ".."), introduced by `what` (e.g. "--target-catalog").
Status CheckName(std::string_view name, const std::string& what);

}  // namespace warmup

#endif  // WARMUP_NAMES_H_
