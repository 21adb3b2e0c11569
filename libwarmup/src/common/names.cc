#include "common/names.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace warmup {

namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

}  // namespace

bool IsSafeName(std::string_view name) { return CheckName(name, "name").ok(); }

Status CheckName(std::string_view name, const std::string& what) {
  auto fail = [&](const std::string& why) {
    return InvalidArgumentError(what + " " + why + " (letters, digits, '.', '_', '-'; at most " +
                                std::to_string(kMaxNameLength) + " characters)");
  };
  if (name.empty()) return fail("is empty");
  if (name == "." || name == "..") return fail("'" + std::string(name) + "' is not a name");
  if (name.size() > kMaxNameLength) {
    return fail("is too long: " + std::to_string(name.size()) + " characters");
  }
  auto bad = std::find_if_not(name.begin(), name.end(), IsNameChar);
  if (bad != name.end()) {
    const auto byte = static_cast<unsigned char>(*bad);
    char shown[16];
    std::snprintf(shown, sizeof(shown), byte > 0x20 && byte < 0x7f ? "'%c'" : "byte 0x%02x", byte);
    return fail("'" + std::string(name) + "' has a character that is not allowed (" + shown + ")");
  }
  return OkStatus();
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
