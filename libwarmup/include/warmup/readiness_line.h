// The readiness line: how a `warmup serve` started with `--ready-fd N` tells
// the process that started it (ServerProcess) that it listens, and where.
// One JSON object on one line, written once, after which the descriptor is
// closed:
//   {"pid":4242,"port":5556,"system_port":0,"build":"warmup 0.9.0 ..."}
// The writer and the reader both go through this header, so the two ends
// cannot drift apart.
#ifndef WARMUP_READINESS_LINE_H_
#define WARMUP_READINESS_LINE_H_

#include <string>
#include <string_view>

#include "warmup/status.h"

namespace warmup {

struct ReadinessLine {
  int pid = 0;          // the server's process id
  int port = 0;         // the gRPC port it listens on, 1..65535
  int system_port = 0;  // its system endpoint's port, 0 when it has none
  std::string build;    // its build, as DescribeBuild().Summary() says it; may be empty
};

// The line `line` describes, JSON-escaped, ending in a newline.
std::string FormatReadinessLine(const ReadinessLine& line);

// Reads a line FormatReadinessLine wrote (the trailing newline optional).
// "port" is required; "pid", "system_port" and "build" may be missing (a
// stub server in a test writes only pid and port) and are then 0 or empty.
// Errors: kInvalidArgument naming what is wrong: not a JSON object, no
// "port", a field of the wrong type, a port outside 1..65535.
StatusOr<ReadinessLine> ParseReadinessLine(std::string_view text);

}  // namespace warmup

#endif  // WARMUP_READINESS_LINE_H_
