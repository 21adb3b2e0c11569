// Env: every file operation of the catalog engine goes through here, so tests
// can substitute a fault-injecting implementation. Internal.
#ifndef WARMUP_SRC_ENGINE_ENV_H_
#define WARMUP_SRC_ENGINE_ENV_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/dir_lock.h"
#include "warmup/status.h"

namespace warmup::engine {

// A file open for appending. Thread-safety: one thread.
class AppendFile {
 public:
  virtual ~AppendFile() = default;
  virtual Status Append(std::string_view data) = 0;
  // Pushes buffered data to the OS (no durability).
  virtual Status Flush() = 0;
  // Makes everything appended so far durable.
  virtual Status Sync() = 0;
  // Asks the OS to start writing what has reached it to the device, without
  // waiting, so that the device works while the writer encodes and a later
  // Sync waits for less. Advisory: no error, no durability.
  virtual void StartWriteback() {}
  virtual Status Close() = 0;
  virtual uint64_t Size() const = 0;
};

// A file open for positional reads. Thread-safety: const reads may be concurrent.
class ReadFile {
 public:
  virtual ~ReadFile() = default;
  // Reads exactly `size` bytes at `offset` into `out`.
  // Errors: kDataLoss naming the file when fewer bytes exist.
  virtual Status ReadAt(uint64_t offset, size_t size, std::string* out) const = 0;
  virtual uint64_t Size() const = 0;
};

class Env {
 public:
  virtual ~Env() = default;
  // Opens `path` for appending, creating it when absent.
  virtual StatusOr<std::unique_ptr<AppendFile>> OpenAppend(const std::string& path) = 0;
  virtual StatusOr<std::unique_ptr<ReadFile>> OpenRead(const std::string& path) = 0;
  // Writes `data` to `path` atomically: a temporary file, fsync, rename, directory fsync.
  virtual Status WriteFileAtomically(const std::string& path, std::string_view data) = 0;
  virtual StatusOr<std::string> ReadWholeFile(const std::string& path) = 0;
  virtual bool Exists(const std::string& path) = 0;
  virtual bool IsDirectory(const std::string& path) = 0;
  virtual Status CreateDirectories(const std::string& path) = 0;
  virtual StatusOr<std::vector<std::string>> ListDirectory(const std::string& path) = 0;
  virtual Status RemoveAll(const std::string& path) = 0;
  virtual Status SyncDirectory(const std::string& path) = 0;
  // Renames `from` to `to`, replacing `to`; atomic on one file system.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Holds `dir` (which exists) for this process until the lock is destroyed
  // (see DirectoryLock; an in-memory Env has nothing to lock).
  virtual StatusOr<std::unique_ptr<DirectoryLock>> LockDirectory(const std::string& dir) {
    return DirectoryLock::Acquire(dir);
  }
};

// The real file system.
Env* DefaultEnv();

// Keeps every file in memory: fast, hermetic tests of the engine's storage.
// Thread-safety: one thread at a time.
std::unique_ptr<Env> NewMemEnv();

// Wraps an Env and fails on purpose: the `fail_after` + 1-th data-changing
// call (append, sync, atomic write) whose path contains `path_substring` and
// every later one returns kUnavailable: "injected fault", or, with
// `error_number` (e.g. ENOSPC), the error the real Env gives for it.
class FaultInjectingEnv : public Env {
 public:
  FaultInjectingEnv(Env* base, std::string path_substring, int64_t fail_after, int error_number = 0);
  StatusOr<std::unique_ptr<AppendFile>> OpenAppend(const std::string& path) override;
  StatusOr<std::unique_ptr<ReadFile>> OpenRead(const std::string& path) override {
    return base_->OpenRead(path);
  }
  Status WriteFileAtomically(const std::string& path, std::string_view data) override;
  StatusOr<std::string> ReadWholeFile(const std::string& path) override { return base_->ReadWholeFile(path); }
  bool Exists(const std::string& path) override { return base_->Exists(path); }
  bool IsDirectory(const std::string& path) override { return base_->IsDirectory(path); }
  Status CreateDirectories(const std::string& path) override { return base_->CreateDirectories(path); }
  StatusOr<std::vector<std::string>> ListDirectory(const std::string& path) override {
    return base_->ListDirectory(path);
  }
  Status RemoveAll(const std::string& path) override { return base_->RemoveAll(path); }
  Status SyncDirectory(const std::string& path) override { return base_->SyncDirectory(path); }
  Status Rename(const std::string& from, const std::string& to) override;
  StatusOr<std::unique_ptr<DirectoryLock>> LockDirectory(const std::string& dir) override {
    return base_->LockDirectory(dir);
  }

  // Counts a data-changing call on `path`; returns the injected error once due.
  Status Tick(const std::string& path);
  int64_t injected() const { return injected_; }

 private:
  Env* base_;
  std::string path_substring_;
  int64_t fail_after_;
  int error_number_;
  int64_t calls_ = 0;
  int64_t injected_ = 0;
};

}  // namespace warmup::engine

namespace warmup {
class Engine;
struct EngineOptions;
namespace engine {
// Opens an engine whose file operations all go through `env` (tests use a
// FaultInjectingEnv). `env` must outlive the engine.
StatusOr<std::unique_ptr<Engine>> OpenEngineWithEnv(Env* env, const std::string& data_dir,
                                                    const EngineOptions& options);
}  // namespace engine
}  // namespace warmup

#endif  // WARMUP_SRC_ENGINE_ENV_H_
