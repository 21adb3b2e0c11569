// printf into a std::string, for the renderers' fixed-width lines. Internal.
#ifndef WARMUP_SRC_REPORT_FORMAT_H_
#define WARMUP_SRC_REPORT_FORMAT_H_

#include <string>

namespace warmup::report {

// `fmt` and its arguments as vsnprintf writes them, cut at 511 characters.
std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace warmup::report

#endif  // WARMUP_SRC_REPORT_FORMAT_H_
