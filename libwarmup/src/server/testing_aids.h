// The server's testing aids (ServerOptions: injected faults, delays, a
// simulated slower build) in one place, consulted by the services at the
// points they name. They are not a gRPC interceptor: a server-side
// interceptor of gRPC's C++ API cannot end a call with a status of its own,
// and the simulated work must fall inside the measured server time, which
// the upsert handler measures. Internal to server/.
#ifndef WARMUP_SRC_SERVER_TESTING_AIDS_H_
#define WARMUP_SRC_SERVER_TESTING_AIDS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "warmup/server.h"
#include "warmup/status.h"

namespace warmup::server {

// Checks `faults` against InjectableMethods().
// Errors: kInvalidArgument naming the unknown method and listing the known
// ones, or a negative call count.
Status CheckFaults(const std::vector<ServerOptions::InjectedFault>& faults);

class TestingAids {
 public:
  explicit TestingAids(const ServerOptions& options);

  // Counts one call of `method`. Not thread-safe: called under the server's
  // lock. Errors: kUnavailable "injected fault: METHOD" once its fault is
  // due; a crash fault ends the process (SIGKILL) instead.
  Status Call(const std::string& method);

  // Before an upsert takes the server's lock: the upsert delay (outside the
  // measured time).
  void BeforeUpsert() const;
  // Inside the measured time of an upsert that started at `start`: busy
  // until the simulated slower build's extra time has passed.
  void SpendSimulatedUpsertTime(std::chrono::steady_clock::time_point start) const;
  // After goLive is announced (GOING_ALIVE), before it runs: the goLive delay.
  void BeforeGoLive() const;

 private:
  struct Fault {
    int64_t calls_left = 0;  // calls that still succeed
    bool crash = false;      // then the process ends, rather than the call failing
  };
  std::map<std::string, Fault> faults_;  // by method
  int golive_delay_ms_ = 0;
  int upsert_delay_ms_ = 0;
  int inject_upsert_delay_us_ = 0;
};

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_TESTING_AIDS_H_
