#include "warmup/server_process.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

namespace warmup {
namespace {

constexpr std::streamoff kTailBytes = std::streamoff{256} * 1024;
constexpr size_t kLineCut = 400;

// "a.b.SomeException: ..." or "a.b.SomeError" alone: a Java exception's
// first line, as a logger prints it under its message.
bool IsExceptionLine(const std::string& line) {
  static const std::regex kException(R"(^(Caused by: )?([A-Za-z_$][\w$]*\.)+[\w$]*(Exception|Error)(:.*)?$)");
  return std::regex_match(line, kException);
}

}  // namespace

std::vector<std::string> LastErrorLines(const std::string& path, size_t max_lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff from = std::max<std::streamoff>(0, size - kTailBytes);
  in.seekg(from);
  std::string line;
  if (from > 0) std::getline(in, line);  // a line cut by the seek
  std::vector<std::string> found;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find("ERROR") == std::string::npos && !IsExceptionLine(line)) continue;
    if (line.size() > kLineCut) line = line.substr(0, kLineCut) + "...";
    found.push_back(line);
  }
  if (found.size() > max_lines) {
    found.erase(found.begin(), found.end() - static_cast<std::ptrdiff_t>(max_lines));
  }
  return found;
}

std::string LogEndsWith(const std::string& whose, const std::string& path) {
  std::string lines;
  for (const std::string& line : LastErrorLines(path)) lines += "\n  " + line;
  return lines.empty() ? "" : whose + " log " + path + " ends with:" + lines;
}

}  // namespace warmup
