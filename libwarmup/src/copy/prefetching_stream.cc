#include "copy/prefetching_stream.h"

#include <chrono>
#include <utility>

namespace warmup {

PrefetchingStream::PrefetchingStream(std::unique_ptr<EntityStream> inner, size_t batch_size, size_t batches)
    : inner_(std::move(inner)),
      batch_size_(batch_size == 0 ? 1 : batch_size),
      batches_(batches == 0 ? 1 : batches),
      reader_([this] { Read(); }) {}

PrefetchingStream::~PrefetchingStream() {
  {
    std::lock_guard lock(mu_);
    closing_ = true;
  }
  room_.notify_all();
  reader_.join();
}

void PrefetchingStream::Read() {
  using Clock = std::chrono::steady_clock;
  while (true) {
    std::vector<Entity> batch(batch_size_);
    size_t filled = 0;
    StatusOr<bool> more = true;
    const Clock::time_point start = Clock::now();
    while (filled < batch_size_) {
      more = inner_->Next(&batch[filled]);
      if (!more.ok() || !*more) break;
      ++filled;
    }
    const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    batch.resize(filled);
    const bool last = !more.ok() || !*more;
    std::unique_lock lock(mu_);
    reader_ns_ += ns;
    room_.wait(lock, [&] { return closing_ || queue_.size() < batches_; });
    if (closing_) return;
    if (!batch.empty()) queue_.push_back(std::move(batch));
    if (last) {
      ended_ = true;
      end_ = std::move(more);
    }
    lock.unlock();
    ready_.notify_one();
    if (last) return;
  }
}

StatusOr<bool> PrefetchingStream::Next(Entity* entity) {
  if (next_ == current_.size()) {
    std::unique_lock lock(mu_);
    ready_.wait(lock, [&] { return !queue_.empty() || ended_; });
    if (queue_.empty()) return end_;
    current_ = std::move(queue_.front());
    queue_.pop_front();
    next_ = 0;
    lock.unlock();
    room_.notify_one();
  }
  *entity = std::move(current_[next_++]);
  return true;
}

double PrefetchingStream::reader_seconds() const {
  std::lock_guard lock(mu_);
  return static_cast<double>(reader_ns_) / 1e9;
}

}  // namespace warmup
