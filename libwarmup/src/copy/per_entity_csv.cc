// The per-entity CSV (docs/measurement.md) as a RunObserver.
#include <fstream>

#include "warmup/run_observer.h"

namespace warmup {
namespace {

class PerEntityCsvWriter : public RunObserver {
 public:
  explicit PerEntityCsvWriter(std::string path) : path_(std::move(path)) {}

  void OnRunStart(const RunStart& start) override { collections_ = start.collections; }
  void OnUpsert(const UpsertSample& sample) override { rows_.push_back(sample); }
  Status OnLoadEnd(const RunResult&) override {
    std::ofstream out(path_, std::ios::trunc);
    out << "collection,primary_key,sequence,start_offset_ns,read_ns,upsert_ns,server_ns,request_bytes,"
           "status\n";
    for (const auto& r : rows_) {
      out << collections_[static_cast<size_t>(r.collection)] << ',' << r.primary_key << ',' << r.sequence
          << ',' << r.start_offset_ns << ',' << r.read_ns << ',' << r.upsert_ns << ',';
      if (r.server_ns) out << *r.server_ns;
      out << ',' << r.request_bytes << ',' << (r.ok ? "ok" : "rejected") << '\n';
    }
    out.close();
    if (!out) return UnavailableError(path_ + ": cannot write the per-entity CSV");
    return OkStatus();
  }

 private:
  std::string path_;
  std::vector<std::string> collections_;
  std::vector<UpsertSample> rows_;
};

}  // namespace

StatusOr<std::unique_ptr<RunObserver>> MakePerEntityCsvWriter(const std::string& path) {
  if (!std::ofstream(path, std::ios::trunc)) {
    return InvalidArgumentError("cannot write the per-entity CSV at " + path);
  }
  return std::unique_ptr<RunObserver>(new PerEntityCsvWriter(path));
}

}  // namespace warmup
