#include "common/human_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warmup::cli {

std::string WithThousands(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return value < 0 ? "-" + digits : digits;
}

std::string Duration(double seconds) {
  const auto total = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  char buf[32];
  if (total < 60) {
    std::snprintf(buf, sizeof(buf), "%lld s", static_cast<long long>(total));
  } else if (total < 3600) {
    std::snprintf(buf, sizeof(buf), "%lld min %02lld s", static_cast<long long>(total / 60),
                  static_cast<long long>(total % 60));
  } else {
    std::snprintf(buf, sizeof(buf), "%lld h %02lld min", static_cast<long long>(total / 3600),
                  static_cast<long long>(total % 3600 / 60));
  }
  return buf;
}

std::string Percent(double part, double whole) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.1f %%", whole > 0 ? 100.0 * part / whole : 0.0);
  return buf;
}

std::string Latency(int64_t ns) {
  char buf[32];
  if (ns < 1'000'000) {
    std::snprintf(buf, sizeof(buf), "%lld us", static_cast<long long>(ns / 1000));
  } else if (ns < 1'000'000'000) {
    std::snprintf(buf, sizeof(buf), "%.1f ms", static_cast<double>(ns) / 1e6);
  } else {
    std::snprintf(buf, sizeof(buf), "%.2f s", static_cast<double>(ns) / 1e9);
  }
  return buf;
}

std::string StallTime(double seconds) {
  if (seconds >= 10) return Duration(seconds);
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.1f s", seconds);
  return buf;
}

}  // namespace warmup::cli
