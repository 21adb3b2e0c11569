#include "copy/read_ahead_stream.h"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace warmup::copy {
namespace {

class ReadAheadStream : public EntityStream {
 public:
  ReadAheadStream(std::unique_ptr<EntityStream> inner, size_t depth)
      : inner_(std::move(inner)), ring_(depth == 0 ? 1 : depth) {
    reader_ = std::thread([this] { Read(); });
  }
  ~ReadAheadStream() override {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    space_.notify_one();
    reader_.join();
  }

  StatusOr<bool> Next(Entity* entity) override {
    std::unique_lock lock(mutex_);
    filled_.wait(lock, [&] { return count_ > 0 || ending_.has_value(); });
    if (count_ == 0) return *ending_;  // every entity before the end or the error was taken
    // The slot gets the caller's old entity back, whose allocations the
    // reader's next decode replaces.
    std::swap(*entity, ring_[head_]);
    head_ = (head_ + 1) % ring_.size();
    --count_;
    lock.unlock();
    space_.notify_one();
    return true;
  }

 private:
  // The reader thread: decodes into the free slot after the last one filled,
  // outside the lock, while the load takes the slots before it.
  void Read() {
    while (true) {
      size_t slot = 0;
      {
        std::unique_lock lock(mutex_);
        space_.wait(lock, [&] { return closing_ || count_ < ring_.size(); });
        if (closing_) return;
        slot = (head_ + count_) % ring_.size();
      }
      StatusOr<bool> more = inner_->Next(&ring_[slot]);
      const bool ended = !more.ok() || !*more;
      {
        std::lock_guard lock(mutex_);
        if (ended) {
          ending_ = std::move(more);
        } else {
          ++count_;
        }
      }
      filled_.notify_one();
      if (ended) return;
    }
  }

  std::unique_ptr<EntityStream> inner_;
  std::vector<Entity> ring_;
  std::thread reader_;
  std::mutex mutex_;
  std::condition_variable filled_;  // an entity or the ending is there to take
  std::condition_variable space_;   // a slot is free, or the stream closes
  // Guarded by mutex_: the slots [head_, head_ + count_) hold decoded
  // entities; the reader alone writes the slot after them, unlocked.
  size_t head_ = 0;
  size_t count_ = 0;
  std::optional<StatusOr<bool>> ending_;  // the inner stream's end (false) or error
  bool closing_ = false;
};

}  // namespace

std::unique_ptr<EntityStream> ReadAhead(std::unique_ptr<EntityStream> inner, size_t depth) {
  return std::make_unique<ReadAheadStream>(std::move(inner), depth);
}

}  // namespace warmup::copy
