// Reading a JVM's unified GC log (JDK 9 and later, -Xlog:gc or -Xlog:gc*
// into a file): how many young and full collections a server made and how
// long they paused it. Only the summary lines tagged exactly [gc] that end in
// a duration count, so -Xlog:gc*'s phase and start lines are not counted
// twice. G1, Parallel and Serial log their pauses this way; ZGC and
// Shenandoah collect concurrently and log no "Pause" of that form.
#ifndef WARMUP_GC_LOG_H_
#define WARMUP_GC_LOG_H_

#include <string>
#include <string_view>

#include "warmup/server_figures.h"
#include "warmup/status.h"

namespace warmup {

// The collections in `text` (a log's contents); `log` is left empty.
GcFigures ParseGcLogText(std::string_view text);

// The collections in the log at `path`.
// Errors: kNotFound when the file is not there (the JVM never wrote it: no
// -Xlog:gc:file={gclog} in the command), kInternal when it cannot be read.
StatusOr<GcFigures> ReadGcLog(const std::string& path);

}  // namespace warmup

#endif  // WARMUP_GC_LOG_H_
