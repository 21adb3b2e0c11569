// The disk's sequential write bandwidth where a target writes, measured in
// the same sitting as the runs it is held against (warmup bench's goLive row).
#ifndef WARMUP_DISK_BANDWIDTH_H_
#define WARMUP_DISK_BANDWIDTH_H_

#include <cstdint>
#include <string>

#include "warmup/status.h"

namespace warmup {

// What a sequential write measured.
struct DiskWrite {
  std::string file;  // the probe file (removed again)
  int64_t bytes = 0;
  double seconds = 0;  // the writes and the fdatasync that makes them durable
  double bytes_per_second() const { return seconds > 0 ? static_cast<double>(bytes) / seconds : 0; }
};

// Writes `bytes` (rounded up to whole MiB) of incompressible data to a new
// file in the existing directory `dir` in 1 MiB writes, fdatasyncs it, and
// removes it: the rate at which that file system takes durable sequential
// data, page cache and all, as goLive meets it. The file's name is warmup's
// own (".warmup-disk-probe-PID"); an existing file of that name is refused,
// never overwritten.
// Errors: kInvalidArgument when bytes < 1; kFailedPrecondition naming the
// file when it exists or cannot be written (the disk full: the message says
// how far it got), and the probe file is removed either way.
StatusOr<DiskWrite> MeasureSequentialWrite(const std::string& dir, int64_t bytes);

}  // namespace warmup

#endif  // WARMUP_DISK_BANDWIDTH_H_
