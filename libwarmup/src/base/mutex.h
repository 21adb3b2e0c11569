// A mutex that clang's thread-safety analysis (-Wthread-safety) knows: a
// member declared GUARDED_BY(mu_) may only be touched with mu_ held, and a
// function marked REQUIRES(mu_) only called so; a missing lock is then a
// compile error in the build that turns the analysis on
// (WARMUP_THREAD_SAFETY_ANALYSIS, scripts/test.sh's TSan leg). libstdc++'s
// std::mutex is not annotated (a capability the analysis knows), so the
// library's own shared state uses these. Internal to the library.
#ifndef WARMUP_SRC_BASE_MUTEX_H_
#define WARMUP_SRC_BASE_MUTEX_H_

#include <absl/base/thread_annotations.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

// Abseil's annotations (clang attributes; nothing for other compilers) by
// the short names of clang's documentation. Abseil's legacy header, which
// absl/base/thread_annotations.h includes, already defines GUARDED_BY,
// PT_GUARDED_BY and NO_THREAD_SAFETY_ANALYSIS the same way: hence #ifndef.
#ifndef GUARDED_BY
#define GUARDED_BY(x) ABSL_GUARDED_BY(x)
#endif
#ifndef PT_GUARDED_BY
#define PT_GUARDED_BY(x) ABSL_PT_GUARDED_BY(x)
#endif
#ifndef NO_THREAD_SAFETY_ANALYSIS
#define NO_THREAD_SAFETY_ANALYSIS ABSL_NO_THREAD_SAFETY_ANALYSIS
#endif
#ifndef REQUIRES
#define REQUIRES(...) ABSL_EXCLUSIVE_LOCKS_REQUIRED(__VA_ARGS__)
#endif
#ifndef EXCLUDES
#define EXCLUDES(...) ABSL_LOCKS_EXCLUDED(__VA_ARGS__)
#endif
#ifndef ACQUIRE
#define ACQUIRE(...) ABSL_EXCLUSIVE_LOCK_FUNCTION(__VA_ARGS__)
#endif
#ifndef RELEASE
#define RELEASE(...) ABSL_UNLOCK_FUNCTION(__VA_ARGS__)
#endif

namespace warmup {

class ABSL_LOCKABLE Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;
  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

// Holds `mu` for its scope; Unlock and Lock let go of it and take it again
// within the scope (the analysis follows both).
class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_.Unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;
  void Unlock() RELEASE() {
    mu_.Unlock();
    held_ = false;
  }
  void Lock() ACQUIRE() {
    mu_.Lock();
    held_ = true;
  }

 private:
  Mutex& mu_;
  bool held_ = true;
};

// A condition variable waited on with a Mutex held. No predicate overloads:
// a predicate is a lambda, which the analysis checks as a function of its
// own, without the lock; callers loop instead (`while (!ready) cv.Wait(mu)`).
class CondVar {
 public:
  // Lets go of `mu`, waits for a notification (or a spurious wake-up), and
  // takes `mu` again.
  void Wait(Mutex& mu) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // As Wait, until `deadline` at the latest: false when it returned because
  // the deadline passed.
  template <class Clock, class Duration>
  bool WaitUntil(Mutex& mu, const std::chrono::time_point<Clock, Duration>& deadline) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    const std::cv_status status = cv_.wait_until(lock, deadline);
    lock.release();
    return status == std::cv_status::no_timeout;
  }
  // As Wait, for `timeout` at the latest: false when it passed. WaitUntil on
  // the steady clock, as std::condition_variable::wait_for is.
  template <class Rep, class Period>
  bool WaitFor(Mutex& mu, const std::chrono::duration<Rep, Period>& timeout) REQUIRES(mu) {
    return WaitUntil(mu, std::chrono::steady_clock::now() + timeout);
  }
  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace warmup

#endif  // WARMUP_SRC_BASE_MUTEX_H_
