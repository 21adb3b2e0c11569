// A catalog's WARM_UP record writes on a thread of their own: an upsert hands
// its entity over and goes on to index it, while the pipeline splits it into
// storage parts, compresses and appends them, in the order given. Splitting
// and compressing were about a quarter of the upserting thread's time in a
// cpu-clock profile of senesi 0.3 with --compress zstd. Internal.
#ifndef WARMUP_SRC_ENGINE_RECORD_PIPELINE_H_
#define WARMUP_SRC_ENGINE_RECORD_PIPELINE_H_

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <deque>
#include <thread>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "warmup/entity.h"
#include "warmup/status.h"

namespace warmup::engine {

// Where a pipeline writes an entity: one collection's record file.
class EntityRecordSink {
 public:
  virtual ~EntityRecordSink() = default;
  // Writes the records of `entity` (which has no earlier version there) and
  // returns the offset of its body. Called on the pipeline's thread only,
  // one entity at a time.
  virtual StatusOr<uint64_t> WriteRecords(const Entity& entity) = 0;
};

// Thread-safety: Write and Settle from one thread (the catalog's writer); the
// pipeline's own thread calls the sinks.
class RecordPipeline {
 public:
  // What a sink's writes gave: each entity's primary key and body offset,
  // in the order written.
  using Written = std::vector<std::pair<int32_t, uint64_t>>;

  // Starts the thread. At most `depth` entities wait to be written.
  explicit RecordPipeline(size_t depth = 64);
  // Writes what is queued, then joins the thread (errors are dropped: Settle
  // every sink first to see them).
  ~RecordPipeline();
  RecordPipeline(const RecordPipeline&) = delete;
  RecordPipeline& operator=(const RecordPipeline&) = delete;

  // Queues `entity` for `sink`, blocking while `depth` entities wait.
  // REQUIRES: the sink is not touched by the caller until Settle(sink) and
  // outlives the pipeline or its Settle. Returns the first error any write
  // gave so far; after one, nothing more is written.
  Status Write(EntityRecordSink* sink, Entity entity);
  // Waits until every entity queued for `sink` is written, and appends to
  // `written` what those writes gave since the last Settle of `sink`.
  // Returns the first error any write gave (sticky).
  Status Settle(EntityRecordSink* sink, Written* written);

 private:
  struct Job {
    EntityRecordSink* sink;
    Entity entity;
  };
  struct SinkState {
    int64_t queued = 0;  // queued and not yet written
    Written written;     // written, not yet settled
  };
  void Run();

  const size_t depth_;
  // The thread is woken for this many queued entities (or a Settle, or the
  // end), not for each: one wake-up per small entity (a Media upsert takes
  // a few microseconds) would cost as much as the write.
  const size_t batch_;
  mutable Mutex mu_;
  CondVar work_;      // a batch queued, a settle asked, or stop
  CondVar progress_;  // an entity written, or room in the queue
  std::deque<Job> queue_ GUARDED_BY(mu_);
  absl::flat_hash_map<const EntityRecordSink*, SinkState> sinks_ GUARDED_BY(mu_);
  bool settling_ GUARDED_BY(mu_) = false;      // a Settle waits: the thread takes what is queued now
  bool writer_waits_ GUARDED_BY(mu_) = false;  // Write or Settle waits on progress_
  bool thread_waits_ GUARDED_BY(mu_) = false;  // the thread waits on work_
  bool stop_ GUARDED_BY(mu_) = false;
  Status error_ GUARDED_BY(mu_);
  std::thread thread_;  // last: starts once the rest is set
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_RECORD_PIPELINE_H_
