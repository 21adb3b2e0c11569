#include "warmup/gc_log.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace warmup {
namespace {

// "[0.234s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 25M->1M(256M) 2.345ms":
// the decorations are the leading [..] groups, the last of them the tags.
void CountLine(std::string_view line, GcFigures& gc) {
  std::string_view tags;
  size_t at = 0;
  while (at < line.size() && line[at] == '[') {
    const size_t close = line.find(']', at);
    if (close == std::string_view::npos) return;
    tags = line.substr(at + 1, close - at - 1);
    at = close + 1;
  }
  // Tags are padded with spaces when the log aligns its columns.
  while (!tags.empty() && tags.back() == ' ') tags.remove_suffix(1);
  if (tags != "gc") return;
  const std::string_view message = line.substr(at);
  const size_t pause = message.find("Pause ");
  if (pause == std::string_view::npos) return;
  // The duration is the last word: "2.345ms".
  std::string_view last = message;
  while (!last.empty() && (last.back() == ' ' || last.back() == '\r')) last.remove_suffix(1);
  const size_t space = last.rfind(' ');
  last = space == std::string_view::npos ? last : last.substr(space + 1);
  if (last.size() < 3 || last.substr(last.size() - 2) != "ms") return;
  double ms = 0;
  const auto [end, error] = std::from_chars(last.data(), last.data() + last.size() - 2, ms);
  if (error != std::errc() || end != last.data() + last.size() - 2) return;
  const std::string_view kind = message.substr(pause + 6);
  if (kind.starts_with("Young")) {
    ++gc.young_collections;
  } else if (kind.starts_with("Full")) {
    ++gc.full_collections;
  } else {
    ++gc.other_pauses;
  }
  gc.pause_seconds += ms / 1000;
}

}  // namespace

GcFigures ParseGcLogText(std::string_view text) {
  GcFigures gc;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    CountLine(text.substr(0, newline), gc);
    if (newline == std::string_view::npos) break;
    text.remove_prefix(newline + 1);
  }
  return gc;
}

StatusOr<GcFigures> ReadGcLog(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    if (errno == ENOENT)
      return NotFoundError("GC log " + path + ": not found (did the command write -Xlog:gc:file={gclog}?)");
    return InternalError("GC log " + path + ": cannot be read: " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  GcFigures gc = ParseGcLogText(text.str());
  gc.log = path;
  return gc;
}

}  // namespace warmup
