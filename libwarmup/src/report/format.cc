#include "report/format.h"

#include <cstdarg>
#include <cstdio>

namespace warmup::report {

std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  return buf;
}

}  // namespace warmup::report
