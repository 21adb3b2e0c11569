// ServerFigures: a server a run started (warmup reindex, a started
// evitaDB), as data: how it ended, its usage, its RSS over time and its
// garbage collections. Filled by ServerProcess (server_process.h).
#ifndef WARMUP_SERVER_FIGURES_H_
#define WARMUP_SERVER_FIGURES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "warmup/process_usage.h"

namespace warmup {

// A JVM server's garbage collections, from its unified GC log
// (-Xlog:gc:file=...; gc_log.h), as the upstream harness prints at teardown.
struct GcFigures {
  std::string log;                // the file read
  int64_t young_collections = 0;  // "Pause Young" (G1, Parallel, Serial)
  int64_t full_collections = 0;   // "Pause Full"
  int64_t other_pauses = 0;       // G1's Remark and Cleanup, and other stop-the-world pauses
  double pause_seconds = 0;       // all of them together
};

// The server process a run started (warmup reindex), as data.
struct ServerFigures {
  std::string binary;
  std::string header;  // the first line it printed: its build, pid and port
  std::string build;   // what it said of its build when ready (BuildInfo::Summary()); empty = an older serve
  int pid = 0;
  ProcessUsage usage;  // at its end (wait4)
  // A server command: `usage` is from /proc samples of its process group
  // (CPU up to the stop, peak RSS of the samples); faults and context
  // switches are not known.
  bool usage_sampled = false;
  // A server warmup did not start but was named by its pid (--server-pid):
  // sampled, never signalled, so it has no stop time.
  bool attached = false;
  std::string ended;  // how it ended, e.g. "exited 0", "killed by SIGKILL after the grace period"
  // From SIGTERM to its end (to the SIGKILL after the grace period when it
  // did not end by itself): how long a stop takes.
  double stop_seconds = 0;
  std::string data_dir;
  int64_t data_bytes = 0;             // the data directory after the run
  int64_t peak_rss_load_bytes = 0;    // highest sample during the load
  int64_t peak_rss_golive_bytes = 0;  // highest sample during goLive
  std::vector<ProcessSample> samples;
  // A JVM's collections, when it was started with a GC log ({gclog}); else
  // why there are none (no {gclog} in the command, the file not written).
  std::optional<GcFigures> gc;
  std::string gc_unavailable;
};

}  // namespace warmup

#endif  // WARMUP_SERVER_FIGURES_H_
