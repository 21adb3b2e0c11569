#include "server/testing_aids.h"

#include <algorithm>
#include <csignal>
#include <thread>

namespace warmup {

const std::vector<std::string>& InjectableMethods() {
  static const std::vector<std::string> kMethods = {"UpsertEntity", "GetEntityCollectionSize",
                                                    "GoLiveAndClose", "Query", "GetEntity"};
  return kMethods;
}

namespace server {

Status CheckFaults(const std::vector<ServerOptions::InjectedFault>& faults) {
  const auto& known = InjectableMethods();
  for (const auto& fault : faults) {
    if (std::find(known.begin(), known.end(), fault.method) == known.end()) {
      std::string list;
      for (const auto& m : known) list += (list.empty() ? "" : ", ") + m;
      return InvalidArgumentError("cannot inject a fault into '" + fault.method + "' (known: " + list + ")");
    }
    if (fault.after_calls < 0)
      return InvalidArgumentError("an injected fault's call count must not be negative");
  }
  return OkStatus();
}

TestingAids::TestingAids(const ServerOptions& options)
    : golive_delay_ms_(options.golive_delay_ms),
      upsert_delay_ms_(options.upsert_delay_ms),
      inject_upsert_delay_us_(options.inject_upsert_delay_us) {
  for (const auto& fault : options.faults) faults_[fault.method] = {fault.after_calls, fault.crash};
}

Status TestingAids::Call(const std::string& method) {
  auto it = faults_.find(method);
  if (it == faults_.end()) return OkStatus();
  if (it->second.calls_left > 0) {
    --it->second.calls_left;
    return OkStatus();
  }
  if (it->second.crash) std::raise(SIGKILL);
  return UnavailableError("injected fault: " + method);
}

void TestingAids::BeforeUpsert() const {
  if (upsert_delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(upsert_delay_ms_));
}

void TestingAids::SpendSimulatedUpsertTime(std::chrono::steady_clock::time_point start) const {
  if (inject_upsert_delay_us_ <= 0) return;
  const auto until = start + std::chrono::microseconds(inject_upsert_delay_us_);
  while (std::chrono::steady_clock::now() < until) {
  }
}

void TestingAids::BeforeGoLive() const {
  if (golive_delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(golive_delay_ms_));
}

}  // namespace server
}  // namespace warmup
