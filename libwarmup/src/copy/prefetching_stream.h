// An EntityStream read ahead on a thread of its own, so that decoding the
// source runs beside the load (on a second core) instead of before each
// upsert. Internal to the copy.
#ifndef WARMUP_SRC_COPY_PREFETCHING_STREAM_H_
#define WARMUP_SRC_COPY_PREFETCHING_STREAM_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "warmup/catalog_source.h"

namespace warmup {

// Reads `inner` on its own thread, up to `batches` batches of `batch_size`
// entities ahead of Next, and hands them over in order; an error of `inner`
// comes out of Next where it happened, after the entities before it.
// Thread-safety: Next from one thread at a time (like any EntityStream);
// reader_seconds from the same thread. Destroying the stream stops the reader
// after the entity it is reading and joins it.
class PrefetchingStream : public EntityStream {
 public:
  PrefetchingStream(std::unique_ptr<EntityStream> inner, size_t batch_size = 64, size_t batches = 4);
  ~PrefetchingStream() override;
  PrefetchingStream(const PrefetchingStream&) = delete;
  PrefetchingStream& operator=(const PrefetchingStream&) = delete;

  StatusOr<bool> Next(Entity* entity) override;
  // The reader thread's time inside `inner`'s Next so far: the source's own
  // reading and decoding, now beside the load.
  double reader_seconds() const;

 private:
  void Read();

  std::unique_ptr<EntityStream> inner_;
  const size_t batch_size_;
  const size_t batches_;
  mutable std::mutex mu_;
  std::condition_variable ready_;  // a batch was queued, or the reader ended
  std::condition_variable room_;   // a batch was taken, or the stream is closing
  std::deque<std::vector<Entity>> queue_;
  bool ended_ = false;          // the reader is done: at the end, or at `error_`
  StatusOr<bool> end_ = false;  // what Next returns after the last entity
  bool closing_ = false;
  int64_t reader_ns_ = 0;
  std::vector<Entity> current_;  // the batch Next takes from (the consumer's)
  size_t next_ = 0;
  std::thread reader_;  // last: started once everything above is set up
};

}  // namespace warmup

#endif  // WARMUP_SRC_COPY_PREFETCHING_STREAM_H_
