#include "common/names.h"

#include <algorithm>

namespace warmup {

bool IsSafeName(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.size() > 255) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool IsSafeRelativePath(std::string_view path) {
  size_t start = 0;
  while (true) {
    const size_t end = std::min(path.find('/', start), path.size());
    if (!IsSafeName(path.substr(start, end - start))) return false;
    if (end == path.size()) return true;
    start = end + 1;
  }
}

}  // namespace warmup
