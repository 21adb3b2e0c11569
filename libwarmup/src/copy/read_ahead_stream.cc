#include "copy/read_ahead_stream.h"

#include <exception>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "base/mutex.h"
namespace warmup::copy {
namespace {

class ReadAheadStream : public EntityStream {
 public:
  ReadAheadStream(std::unique_ptr<EntityStream> inner, size_t depth)
      : inner_(std::move(inner)), ring_(depth == 0 ? 1 : depth), batch_((ring_.size() + 1) / 2) {
    reader_ = std::thread([this] { Read(); });
  }
  ~ReadAheadStream() override {
    {
      MutexLock lock(mutex_);
      closing_ = true;
    }
    space_.NotifyOne();
    reader_.join();
  }

  StatusOr<bool> Next(Entity* entity) override {
    MutexLock lock(mutex_);
    if (count_ == 0 && !ending_) {
      // Woken once per batch, not per entity: a wake-up per entity cost a
      // null-target load at senesi 0.3 a third of its wall-clock in futex
      // calls when the load was faster than the reader.
      load_waits_ = true;
      while (count_ < batch_ && !ending_.has_value()) filled_.Wait(mutex_);
      load_waits_ = false;
    }
    if (count_ == 0) return *ending_;  // every entity before the end or the error was taken
    // The slot gets the caller's old entity back, whose allocations the
    // reader's next decode replaces.
    std::swap(*entity, ring_[head_]);
    head_ = (head_ + 1) % ring_.size();
    --count_;
    const bool wake_reader = reader_waits_ && ring_.size() - count_ >= batch_;
    lock.Unlock();
    if (wake_reader) space_.NotifyOne();
    return true;
  }

 private:
  // The reader thread: decodes into the free slot after the last one filled,
  // outside the lock, while the load takes the slots before it.
  void Read() {
    while (true) {
      size_t slot = 0;
      {
        MutexLock lock(mutex_);
        if (!closing_ && count_ == ring_.size()) {
          reader_waits_ = true;
          while (!closing_ && ring_.size() - count_ < batch_) space_.Wait(mutex_);
          reader_waits_ = false;
        }
        if (closing_) return;
        slot = (head_ + count_) % ring_.size();
      }
      // An exception here would end the process (no caller on this thread
      // to catch it): it becomes the stream's error instead.
      StatusOr<bool> more = false;
      try {
        more = inner_->Next(&ring_[slot]);
      } catch (const std::exception& e) {
        more = InternalError(std::string("reading the source ahead: ") + e.what());
      } catch (...) {
        more = InternalError("reading the source ahead: an exception that is not a std::exception");
      }
      const bool ended = !more.ok() || !*more;
      bool wake_load = false;
      {
        MutexLock lock(mutex_);
        if (ended) {
          ending_ = std::move(more);
        } else {
          ++count_;
        }
        wake_load = load_waits_ && (ended || count_ >= batch_);
      }
      if (wake_load) filled_.NotifyOne();
      if (ended) return;
    }
  }

  std::unique_ptr<EntityStream> inner_;
  std::vector<Entity> ring_;
  // A waiting side is woken when this many entities (half the ring) are
  // there to take, or slots free to fill, or at the end.
  const size_t batch_;
  std::thread reader_;
  Mutex mutex_;
  CondVar filled_;  // a batch or the ending is there to take
  CondVar space_;   // a batch of slots is free, or the stream closes
  // The slots [head_, head_ + count_) hold decoded entities; the reader
  // alone writes the slot after them, unlocked.
  size_t head_ GUARDED_BY(mutex_) = 0;
  size_t count_ GUARDED_BY(mutex_) = 0;
  std::optional<StatusOr<bool>> ending_ GUARDED_BY(mutex_);  // the inner stream's end (false) or error
  bool closing_ GUARDED_BY(mutex_) = false;
  bool load_waits_ GUARDED_BY(mutex_) = false;    // Next is waiting on filled_
  bool reader_waits_ GUARDED_BY(mutex_) = false;  // the reader is waiting on space_
};

}  // namespace

std::unique_ptr<EntityStream> ReadAhead(std::unique_ptr<EntityStream> inner, size_t depth) {
  return std::make_unique<ReadAheadStream>(std::move(inner), depth);
}

}  // namespace warmup::copy
