// (4) A custom RunObserver: prints a line every N upserts and one when goLive
// ends, while RunCopy loads a generated catalog into the null target.
// Usage: progress_observer [N]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "warmup/copy_engine.h"
#include "warmup/generator.h"
#include "warmup/run_result.h"

namespace {

class EveryNUpserts : public warmup::RunObserver {
 public:
  explicit EveryNUpserts(int64_t n) : n_(n) {}
  void OnRunStart(const warmup::RunStart& start) override { collections_ = start.collections; }
  void OnUpsert(const warmup::UpsertSample& sample) override {
    if ((sample.sequence + 1) % n_ != 0) return;
    std::printf("%8lld upserts, now in %s (last took %lld ns)\n", static_cast<long long>(sample.sequence + 1),
                collections_[static_cast<size_t>(sample.collection)].c_str(),
                static_cast<long long>(sample.upsert_ns));
  }
  void OnGoLiveEnd(warmup::GoLiveOutcome outcome, double seconds) override {
    std::printf("goLive %s in %.3f s\n", outcome == warmup::GoLiveOutcome::kCompleted ? "done" : "failed",
                seconds);
  }

 private:
  int64_t n_;
  std::vector<std::string> collections_;
};

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 500;
  if (n <= 0) {
    std::fprintf(stderr, "usage: progress_observer [N > 0]\n");
    return 2;
  }
  warmup::GeneratorOptions senesi;
  senesi.scale = 0.005;
  auto source = warmup::OpenGeneratorSource(senesi);
  if (!source.ok()) {
    std::fprintf(stderr, "%s\n", source.status().ToString().c_str());
    return 1;
  }
  auto target = warmup::MakeNullTarget();
  EveryNUpserts observer(n);
  warmup::CopyOptions options;
  options.observers = {&observer};
  auto result = warmup::RunCopy(**source, *target, options);
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", result.status().ToString().c_str());
    return 1;
  }
  return result->ExitCode();
}
