#include "engine/index_io.h"

#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <thread>
#include <utility>

#include "base/crc32c.h"

namespace warmup::engine {

void IndexWriter::Sink::Write(std::string_view data) {
  if (file == nullptr) {
    memory.append(data);
    return;
  }
  crc = Crc32cExtend(crc, data.data(), data.size());
  if (!status.ok()) return;
  status = file->Append(data);
  if (!status.ok()) return;
  unflushed += data.size();
  if (unflushed >= kWritebackEvery) {
    file->StartWriteback();
    unflushed = 0;
  }
}

// One thread appending the buffers it is handed, one at a time, in order.
class IndexWriter::Appender {
 public:
  Appender(Sink* sink, char* free) : sink_(sink), free_(free), thread_([this] { Run(); }) {}
  ~Appender() {
    {
      MutexLock lock(mu_);
      stop_ = true;
    }
    wake_.NotifyOne();
    thread_.join();  // after the pending buffer is appended
  }
  // Queues `full` (`size` bytes) once the previous buffer is appended and
  // returns that previous buffer, free to fill.
  char* Swap(char* full, size_t size) {
    MutexLock lock(mu_);
    while (pending_ != nullptr) done_.Wait(mu_);
    pending_ = full;
    pending_size_ = size;
    char* free = free_;
    free_ = nullptr;
    lock.Unlock();
    wake_.NotifyOne();
    return free;
  }
  // Returns once nothing is queued: the sink is the caller's again.
  void Wait() {
    MutexLock lock(mu_);
    while (pending_ != nullptr) done_.Wait(mu_);
  }

 private:
  void Run() {
    MutexLock lock(mu_);
    for (;;) {
      while (pending_ == nullptr && !stop_) wake_.Wait(mu_);
      if (pending_ == nullptr) return;
      char* data = pending_;
      const size_t size = pending_size_;
      lock.Unlock();
      try {
        sink_->Write(std::string_view(data, size));
      } catch (const std::exception& e) {
        if (sink_->status.ok()) sink_->status = InternalError(std::string("index write: ") + e.what());
      } catch (...) {
        if (sink_->status.ok()) sink_->status = InternalError("index write: a non-standard exception");
      }
      lock.Lock();
      pending_ = nullptr;
      free_ = data;
      done_.NotifyOne();
    }
  }

  Sink* sink_;
  Mutex mu_;
  CondVar wake_;  // a buffer queued, or stop
  CondVar done_;  // the queued buffer appended
  char* pending_ GUARDED_BY(mu_) = nullptr;
  size_t pending_size_ GUARDED_BY(mu_) = 0;
  char* free_ GUARDED_BY(mu_);
  bool stop_ GUARDED_BY(mu_) = false;
  std::thread thread_;  // last: starts once the rest is set
};

IndexWriter::IndexWriter(AppendFile* file)
    : sink_{file, 0, OkStatus(), {}, 0}, first_(new char[kBuffer + kSlack]), buffer_(first_.get()) {}

IndexWriter::IndexWriter() : IndexWriter(nullptr) {}

IndexWriter::~IndexWriter() = default;

void IndexWriter::Spill() {
  if (used_ == 0) return;
  spilled_ += used_;
  if (sink_.file == nullptr) {
    sink_.Write(std::string_view(buffer_, used_));
    used_ = 0;
    return;
  }
  if (appender_ == nullptr) {
    second_.reset(new char[kBuffer + kSlack]);
    appender_ = std::make_unique<Appender>(&sink_, second_.get());
  }
  buffer_ = appender_->Swap(buffer_, used_);
  used_ = 0;
}

void IndexWriter::Str(std::string_view s) {
  U64(s.size());
  Splice(s);
}

void IndexWriter::Splice(std::string_view encoded) {
  if (used_ + encoded.size() > kBuffer + kSlack) {
    Spill();
    if (encoded.size() > kBuffer) {  // larger than the buffer: straight through
      if (appender_ != nullptr) appender_->Wait();
      sink_.Write(encoded);
      spilled_ += encoded.size();
      return;
    }
  }
  std::memcpy(buffer_ + used_, encoded.data(), encoded.size());
  used_ += encoded.size();
}

std::string IndexWriter::TakeEncoded() {
  Spill();
  return std::exchange(sink_.memory, std::string());
}

void IndexWriter::Bitmap(const Roaring& r) {
  std::string bytes(r.getSizeInBytes(true), '\0');
  r.write(bytes.data(), true);
  Str(bytes);
}

void IndexWriter::Pks(const PkSet& pks) {
  // Count, then ascending deltas: short for the many small sets.
  U64(pks.size());
  uint32_t last = 0;
  pks.ForEach([&](uint32_t pk) {
    U64(pk - last);
    last = pk;
  });
}

Status IndexWriter::Finish() {
  appender_.reset();  // appends what is queued and joins: the sink is ours alone from here
  if (used_ > 0) sink_.Write(std::string_view(buffer_, used_));
  spilled_ += used_;
  used_ = 0;
  if (sink_.file == nullptr) return OkStatus();
  char crc[4];
  for (int i = 0; i < 4; ++i) crc[i] = static_cast<char>(sink_.crc >> (8 * i));
  if (sink_.status.ok()) sink_.status = sink_.file->Append(std::string_view(crc, 4));
  return sink_.status;
}

OrderedEncoder::OrderedEncoder(size_t parts, std::function<void(size_t, IndexWriter&)> encode)
    : parts_(parts), encode_(std::move(encode)), encoded_(parts), ready_(parts, 0), helper_([this] {
        RunHelper();
      }) {}

OrderedEncoder::~OrderedEncoder() {
  {
    MutexLock lock(mu_);
    stop_ = true;
  }
  changed_.NotifyAll();
  helper_.join();
}

void OrderedEncoder::EncodeOne(size_t part, IndexWriter& mem) {
  encode_(part, mem);
  std::string bytes = mem.TakeEncoded();
  MutexLock lock(mu_);
  encoded_[part] = std::move(bytes);
  ready_[part] = 1;
  changed_.NotifyAll();
}

void OrderedEncoder::RunHelper() {
  IndexWriter mem;
  MutexLock lock(mu_);
  for (;;) {
    while (!stop_ && next_ < parts_ && !CanTake()) changed_.Wait(mu_);
    if (stop_ || next_ >= parts_) return;
    const size_t part = next_++;
    lock.Unlock();
    try {
      EncodeOne(part, mem);
    } catch (...) {
      lock.Lock();
      error_ = std::current_exception();
      stop_ = true;
      changed_.NotifyAll();
      return;
    }
    lock.Lock();
  }
}

void OrderedEncoder::SpliceInto(IndexWriter& out) {
  IndexWriter mem;
  MutexLock lock(mu_);
  while (spliced_ < parts_ && error_ == nullptr) {
    if (ready_[spliced_]) {
      std::string bytes = std::move(encoded_[spliced_]);
      ++spliced_;
      changed_.NotifyAll();
      lock.Unlock();
      out.Splice(bytes);
      lock.Lock();
    } else if (CanTake()) {
      const size_t part = next_++;
      lock.Unlock();
      EncodeOne(part, mem);
      lock.Lock();
    } else {
      changed_.Wait(mu_);
    }
  }
  if (error_ != nullptr) std::rethrow_exception(error_);
}

IndexReader::IndexReader(std::string data, std::string name)
    : data_(std::move(data)), name_(std::move(name)) {
  if (data_.size() < 4) {
    status_ = DataLossError(name_ + ": too short to be an index snapshot");
    return;
  }
  end_ = data_.size() - 4;
  uint32_t stored = 0;
  for (int i = 0; i < 4; ++i) {
    stored |= static_cast<uint32_t>(static_cast<uint8_t>(data_[end_ + i])) << (8 * i);
  }
  if (stored != Crc32c(data_.data(), end_)) status_ = DataLossError(name_ + ": checksum does not match");
}

bool IndexReader::Need(size_t n) {
  if (!status_.ok()) return false;
  if (end_ - pos_ < n) {
    status_ = DataLossError(name_ + ": offset " + std::to_string(pos_) + ": ends early");
    return false;
  }
  return true;
}

uint64_t IndexReader::U64() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (!Need(1)) return 0;
    const auto byte = static_cast<uint8_t>(data_[pos_++]);
    v |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return v;
  }
  status_ = DataLossError(name_ + ": offset " + std::to_string(pos_) + ": malformed varint");
  return 0;
}

std::string IndexReader::Str() {
  const uint64_t n = U64();
  if (!Need(n)) return std::string();
  std::string s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

Roaring IndexReader::Bitmap() {
  const std::string bytes = Str();
  if (!status_.ok() || bytes.empty()) return Roaring();
  try {
    return Roaring::readSafe(bytes.data(), bytes.size());
  } catch (const std::exception&) {  // CRoaring reports malformed input by throwing
    status_ = DataLossError(name_ + ": offset " + std::to_string(pos_) + ": malformed bitmap");
    return Roaring();
  }
}

PkSet IndexReader::Pks() {
  PkSet pks;
  const uint64_t n = U64();
  uint32_t last = 0;
  for (uint64_t i = 0; i < n && status_.ok(); ++i) {
    last += static_cast<uint32_t>(U64());
    pks.Add(last);
  }
  return pks;
}

int32_t IndexReader::NonNegativeI32(std::string_view what) {
  const int64_t stored = I64();
  if (stored < 0) {
    Invalid("negative " + std::string(what) + " " + std::to_string(stored));
  } else if (stored > std::numeric_limits<int32_t>::max()) {
    Invalid(std::string(what) + " " + std::to_string(stored) + " outside 0 .. 2^31 - 1");
  } else {
    return static_cast<int32_t>(stored);
  }
  return 0;
}

void IndexReader::Invalid(std::string_view what) {
  if (status_.ok()) {
    status_ = DataLossError(name_ + ": offset " + std::to_string(pos_) + ": " + std::string(what));
  }
}

Status IndexReader::Done() {
  if (status_.ok() && pos_ != end_) {
    status_ = DataLossError(name_ + ": " + std::to_string(end_ - pos_) + " unread bytes at the end");
  }
  return status_;
}

}  // namespace warmup::engine
