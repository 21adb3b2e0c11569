// warmup-profile: an embedded load in one process with a profiler window
// around the load alone (not the source's opening, the schema set-up, goLive
// or the report), so that a profile holds the write path. Reports, per
// collection, the allocations and bytes allocated per upsert, counted by a
// tcmalloc hook that only this binary installs, and the write path's share of
// the window's CPU time. docs/profiling.md says how to read it.
#include <gperftools/malloc_hook_c.h>
#include <sys/resource.h>
#include <time.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <thread>

#include "common/options.h"
#include "common/profiler_window.h"
#include "common/run_command.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

namespace {

using warmup::cli::ProfilerWindow;

// Counted on the loading thread only, while an upsert runs: tcmalloc calls
// the hook for every allocation, C's malloc as well as C++'s new.
thread_local bool counting = false;
thread_local int64_t allocations = 0;
thread_local int64_t allocated_bytes = 0;

extern "C" void CountAllocation(const void*, size_t size) {
  if (!counting) return;
  ++allocations;
  allocated_bytes += static_cast<int64_t>(size);
}

int64_t ThreadCpuNanos() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

struct UpsertFigures {
  int64_t upserts = 0;
  int64_t allocations = 0;
  int64_t bytes = 0;
  int64_t cpu_nanos = 0;  // the loading thread's CPU inside the upserts
};

using FiguresByType = std::map<std::string, UpsertFigures>;

// The embedded target, measured inside each upsert into `*figures` (which
// outlives it: the load drops its target before the report is made).
class MeasuredTarget : public warmup::CatalogTarget {
 public:
  MeasuredTarget(std::unique_ptr<warmup::CatalogTarget> inner, FiguresByType* figures)
      : inner_(std::move(inner)), figures_(figures) {}
  std::string Describe() const override { return inner_->Describe(); }
  warmup::Status CreateCatalog(const warmup::CatalogSchema& schema) override {
    return inner_->CreateCatalog(schema);
  }
  warmup::Status Upsert(const warmup::Entity& entity, warmup::UpsertReceipt* receipt) override {
    const int64_t allocations_before = allocations;
    const int64_t bytes_before = allocated_bytes;
    const int64_t cpu_before = ThreadCpuNanos();
    counting = true;
    warmup::Status status = inner_->Upsert(entity, receipt);
    counting = false;
    UpsertFigures& f = (*figures_)[entity.type];
    f.cpu_nanos += ThreadCpuNanos() - cpu_before;
    ++f.upserts;
    f.allocations += allocations - allocations_before;
    f.bytes += allocated_bytes - bytes_before;
    return status;
  }
  warmup::Status GoLive() override { return inner_->GoLive(); }
  warmup::StatusOr<int64_t> Count(const std::string& type) override { return inner_->Count(type); }
  warmup::Status DropCatalog() override { return inner_->DropCatalog(); }
  warmup::StatusOr<std::unique_ptr<warmup::CatalogSource>> ReadBack() override { return inner_->ReadBack(); }
  std::vector<warmup::CollectionIndexStatistics> IndexStatistics() const override {
    return inner_->IndexStatistics();
  }
  std::string Kind() const override { return inner_->Kind(); }
  bool StoresEntities() const override { return inner_->StoresEntities(); }

 private:
  std::unique_ptr<warmup::CatalogTarget> inner_;
  FiguresByType* figures_;
};

// Opens the window when the load starts (the catalog made, the first entity
// next) and closes it when the last upsert is done, before goLive.
class WindowObserver : public warmup::RunObserver {
 public:
  explicit WindowObserver(ProfilerWindow* window) : window_(window) {}
  void OnRunStart(const warmup::RunStart&) override {
    cpu_start_ = ProcessCpuSeconds();
    wall_start_ = std::chrono::steady_clock::now();
    error_ = window_->Open();
  }
  warmup::Status OnLoadEnd(const warmup::RunResult&) override {
    wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
    cpu_seconds_ = ProcessCpuSeconds() - cpu_start_;
    if (window_->open()) error_ = window_->Close();
    return warmup::OkStatus();  // a profiler's trouble is reported, the run's figures still stand
  }
  double wall_seconds() const { return wall_seconds_; }
  double cpu_seconds() const { return cpu_seconds_; }
  const warmup::Status& error() const { return error_; }

 private:
  ProfilerWindow* window_;
  double cpu_start_ = 0;
  std::chrono::steady_clock::time_point wall_start_;
  double wall_seconds_ = 0;
  double cpu_seconds_ = 0;
  warmup::Status error_;
};

double PerUpsert(int64_t total, int64_t upserts) {
  return upserts > 0 ? static_cast<double>(total) / static_cast<double>(upserts) : 0.0;
}

nlohmann::json ProfileJson(const ProfilerWindow& window, const WindowObserver& observer,
                           const FiguresByType& figures) {
  int64_t upsert_cpu = 0;
  nlohmann::json collections = nlohmann::json::array();
  for (const auto& [type, f] : figures) {
    upsert_cpu += f.cpu_nanos;
    collections.push_back({{"entity_type", type},
                           {"upserts", f.upserts},
                           {"allocations_per_upsert", PerUpsert(f.allocations, f.upserts)},
                           {"allocated_bytes_per_upsert", PerUpsert(f.bytes, f.upserts)},
                           {"cpu_us_per_upsert", PerUpsert(f.cpu_nanos, f.upserts) / 1e3}});
  }
  const double upsert_cpu_seconds = static_cast<double>(upsert_cpu) / 1e9;
  return {{"profiler", warmup::cli::ProfilerKindName(window.kind())},
          {"output", window.Describe()},
          {"error",
           observer.error().ok() ? nlohmann::json(nullptr) : nlohmann::json(observer.error().ToString())},
          {"window_wall_seconds", observer.wall_seconds()},
          {"window_cpu_seconds", observer.cpu_seconds()},
          {"upsert_cpu_seconds", upsert_cpu_seconds},
          {"write_path_cpu_share",
           observer.cpu_seconds() > 0 ? upsert_cpu_seconds / observer.cpu_seconds() : 0.0},
          {"allocations_counted_by", "tcmalloc new hook, loading thread, inside upserts"},
          {"collections", collections}};
}

void PrintProfile(const nlohmann::json& p) {
  std::printf("\nprofile window: the load alone (first entity to last upsert), profiler %s\n",
              p["profiler"].get<std::string>().c_str());
  std::printf(
      "  wall %.3f s, process CPU %.3f s; CPU inside upserts %.3f s = %.1f %% of it (the write path;\n"
      "  the rest reads the source and runs the loop)\n",
      p["window_wall_seconds"].get<double>(), p["window_cpu_seconds"].get<double>(),
      p["upsert_cpu_seconds"].get<double>(), 100.0 * p["write_path_cpu_share"].get<double>());
  std::printf("  %-22s %10s %14s %16s %14s\n", "collection", "upserts", "allocs/upsert", "bytes/upsert",
              "CPU us/upsert");
  for (const auto& c : p["collections"]) {
    std::printf("  %-22s %10lld %14.1f %16.1f %14.1f\n", c["entity_type"].get<std::string>().c_str(),
                static_cast<long long>(c["upserts"].get<int64_t>()),
                c["allocations_per_upsert"].get<double>(), c["allocated_bytes_per_upsert"].get<double>(),
                c["cpu_us_per_upsert"].get<double>());
  }
  std::printf(
      "  allocations: every malloc and new on the loading thread inside an upsert (tcmalloc's hook).\n"
      "  This binary runs on tcmalloc; warmup load runs on glibc malloc, so times differ from its.\n");
  if (!p["output"].get<std::string>().empty()) {
    std::printf("  wrote %s\n", p["output"].get<std::string>().c_str());
  }
  if (!p["error"].is_null()) std::printf("  PROFILER ERROR: %s\n", p["error"].get<std::string>().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  auto cmd = warmup::cli::ParseProfile(std::vector<std::string>(argv + 1, argv + argc));
  if (auto stop = StopAfterParse(cmd)) return *stop;
  auto window = ProfilerWindow::Make(cmd->profiler.kind, cmd->profiler.out);
  if (!window.ok()) return FailWith(window.status());
  if (MallocHook_AddNewHook(&CountAllocation) == 0) {
    return FailWith(warmup::InternalError("tcmalloc refused the allocation hook"));
  }
  WindowObserver observer(window->get());
  FiguresByType figures;
  warmup::RunHooks hooks;
  hooks.observers = {&observer};
  hooks.wrap_target = [&](std::unique_ptr<warmup::CatalogTarget> inner) {
    return std::unique_ptr<warmup::CatalogTarget>(new MeasuredTarget(std::move(inner), &figures));
  };
  warmup::cli::SignalWatcher signals("warmup-profile", false);
  auto result = RunCommand(*cmd, "warmup-profile", signals, hooks, {{"--profile-out", cmd->profiler.out}});
  if (!result.ok()) return FailToRun(result.status());
  const nlohmann::json profile = ProfileJson(**window, observer, figures);
  WriteRunFiles(*cmd, *result, [&](const warmup::RunResult& run) {
    nlohmann::json report = nlohmann::json::parse(warmup::RenderJsonReport(run));
    report["profile"] = profile;
    return report.dump(2) + "\n";
  });
  std::string text = warmup::RenderTextReport(*result);
  // The profile goes before the verdict's RUN_STATUS line, which stays last.
  const size_t status_line = text.rfind("RUN_STATUS=");
  std::cout << text.substr(0, status_line) << std::flush;
  PrintProfile(profile);
  std::cout << "\n" << text.substr(status_line) << std::flush;
  if (cmd->report.hold_open_seconds > 0) {
    std::this_thread::sleep_for(std::chrono::seconds(cmd->report.hold_open_seconds));
  }
  return result->ExitCode();
}
