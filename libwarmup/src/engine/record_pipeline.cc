#include "engine/record_pipeline.h"

#include <exception>
#include <string>

namespace warmup::engine {

RecordPipeline::RecordPipeline(size_t depth)
    : depth_(depth < 2 ? 2 : depth), batch_(depth_ / 2), thread_([this] { Run(); }) {}

RecordPipeline::~RecordPipeline() {
  {
    MutexLock lock(mu_);
    stop_ = true;
  }
  work_.NotifyOne();
  thread_.join();
}

Status RecordPipeline::Write(EntityRecordSink* sink, Entity entity) {
  MutexLock lock(mu_);
  if (queue_.size() >= depth_ && error_.ok()) {
    // Woken when a batch of room is free, not at each entity written.
    writer_waits_ = true;
    while (queue_.size() + batch_ > depth_ && error_.ok()) progress_.Wait(mu_);
    writer_waits_ = false;
  }
  if (!error_.ok()) return error_;
  queue_.push_back({sink, std::move(entity)});
  ++sinks_[sink].queued;
  const bool wake = thread_waits_ && queue_.size() >= batch_;
  lock.Unlock();
  if (wake) work_.NotifyOne();
  return OkStatus();
}

Status RecordPipeline::Settle(EntityRecordSink* sink, Written* written) {
  MutexLock lock(mu_);
  auto it = sinks_.find(sink);
  if (it == sinks_.end()) return error_;
  if (it->second.queued > 0) {
    settling_ = true;
    writer_waits_ = true;
    if (thread_waits_) work_.NotifyOne();
    // No sink is added while this waits (Write is this thread's), so `it` stays valid.
    while (it->second.queued != 0) progress_.Wait(mu_);
    writer_waits_ = false;
    settling_ = false;
  }
  Written& done = it->second.written;
  written->insert(written->end(), done.begin(), done.end());
  done.clear();
  return error_;
}

void RecordPipeline::Run() {
  MutexLock lock(mu_);
  while (true) {
    auto ready = [&]() REQUIRES(mu_) {
      return queue_.size() >= batch_ || (settling_ && !queue_.empty()) || stop_;
    };
    if (!ready()) {
      thread_waits_ = true;
      while (!ready()) work_.Wait(mu_);
      thread_waits_ = false;
    }
    if (queue_.empty()) return;  // stopped, and everything queued is written
    Job job = std::move(queue_.front());
    queue_.pop_front();
    const bool skip = !error_.ok();  // after an error nothing more is written
    lock.Unlock();
    const int32_t pk = job.entity.primary_key;
    StatusOr<uint64_t> offset = uint64_t{0};
    if (!skip) {
      // An exception here would end the process (no caller on this thread
      // to catch it): it becomes the pipeline's error instead.
      try {
        offset = job.sink->WriteRecords(job.entity);
      } catch (const std::exception& e) {
        offset = InternalError(std::string("writing records: ") + e.what());
      } catch (...) {
        offset = InternalError("writing records: an exception that is not a std::exception");
      }
    }
    job.entity = Entity();  // freed here, outside the lock
    lock.Lock();
    SinkState& state = sinks_[job.sink];
    --state.queued;
    if (!skip) {
      if (offset.ok()) {
        state.written.emplace_back(pk, *offset);
      } else if (error_.ok()) {
        error_ = offset.status();
      }
    }
    if (writer_waits_ && (state.queued == 0 || queue_.size() + batch_ <= depth_ || !error_.ok())) {
      progress_.NotifyOne();
    }
  }
}

}  // namespace warmup::engine
