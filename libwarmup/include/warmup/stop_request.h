// How a caller ends a run early from another thread (a signal watcher).
#ifndef WARMUP_STOP_REQUEST_H_
#define WARMUP_STOP_REQUEST_H_

#include <atomic>

namespace warmup {

// How a caller ends a run early, from any thread (a signal watcher). Request
// once: the load stops after the current upsert and the partial target is
// dropped; a started server that does not let the load get there within its
// stop grace is stopped under it. StopNow stops a started server at once.
class StopRequest {
 public:
  // `reason` is the signal that asked (SIGINT, SIGTERM), or 0 for none in particular.
  void Request(int reason) {
    reason_ = reason;
    requested_ = true;
  }
  void StopNow() { now_ = true; }
  bool requested() const { return requested_; }
  bool now() const { return now_; }
  int reason() const { return reason_; }
  // What CopyOptions::stop points at.
  const std::atomic<bool>* flag() const { return &requested_; }

 private:
  std::atomic<bool> requested_{false};
  std::atomic<bool> now_{false};
  std::atomic<int> reason_{0};
};

}  // namespace warmup

#endif  // WARMUP_STOP_REQUEST_H_
