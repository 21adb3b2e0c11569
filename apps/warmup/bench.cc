// warmup bench: the write path's table in one sitting. Each run is a `warmup
// load` or `warmup reindex` of this binary in a process of its own (so that
// each has its own peak RSS), with its reports kept in OUT; the round trip and
// the disk are probed here; the table is the library's (warmup/bench.h).
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "common/child_run.h"
#include "common/run_command.h"
#include "warmup/bench.h"
#include "warmup/catalog_admin.h"
#include "warmup/disk_bandwidth.h"
#include "warmup/generator.h"
#include "warmup/server.h"

namespace {

namespace fs = std::filesystem;
using warmup::cli::BenchCommand;
using warmup::cli::LoadCommand;

// The median of unary round trips to a warmup serve in this process.
warmup::StatusOr<double> RoundTripMicros(const fs::path& data_dir, int calls) {
  warmup::ServerOptions options;
  options.data_dir = data_dir.string();
  options.listen = "127.0.0.1:0";
  auto server = warmup::Server::Start(options);
  if (!server.ok()) return server.status();
  auto stats = warmup::MeasureRoundTrips("127.0.0.1:" + std::to_string((*server)->port()), calls);
  (*server)->Shutdown();
  if (!stats.ok()) return stats.status();
  return stats->median_us;
}

// The sittings' labels: the --scales entries as spelled, or the name of the
// --pristine-dir snapshot's directory ("DIR/" too).
std::vector<std::string> SittingLabels(const BenchCommand& cmd) {
  if (!cmd.scales.empty()) return cmd.scales;
  const fs::path dir = fs::path(cmd.pristine_dir).lexically_normal();
  return {(dir.has_filename() ? dir : dir.parent_path()).filename().string()};
}

// What every run of a sitting reads, and where its reports go.
struct Sitting {
  std::string label;
  fs::path reports;      // OUT/sitting-LABEL
  std::string pristine;  // the snapshot's directory
  std::string catalog;   // the snapshot in it; empty = its only one
};

// The sitting's run `name` (null, embedded: `warmup load`; remote, evitadb:
// `warmup reindex`) as its command parses it, so that its flags are checked
// before it runs and its report (REPORTS/NAME.json) and work directory
// (WORK/NAME) are read from what it was told.
warmup::StatusOr<LoadCommand> SittingRun(const BenchCommand& cmd, const Sitting& sitting,
                                         const std::string& name, const fs::path& work) {
  std::vector<std::string> args = {"--pristine-dir",
                                   sitting.pristine,
                                   "--quiet",
                                   "--run",
                                   name,
                                   "--report-json",
                                   (sitting.reports / (name + ".json")).string()};
  if (!sitting.catalog.empty()) args.insert(args.end(), {"--catalog", sitting.catalog});
  const std::string work_dir = (work / name).string();
  if (name == "null") {
    args.insert(args.end(), {"--target", "null"});
    return warmup::cli::ParseLoad(args);
  }
  if (name == "evitadb") {
    args.insert(args.end(),
                {"--server-command", cmd.evitadb_command, "--work-dir", work_dir, "--verify", cmd.verify});
    if (!cmd.evitadb_xmx.empty()) args.insert(args.end(), {"--server-xmx", cmd.evitadb_xmx});
    return warmup::cli::ParseReindex(args);
  }
  if (name == "embedded") args.insert(args.end(), {"--target", "embedded"});
  // The engine's flags, for the embedded run and the started serve.
  args.insert(args.end(), {"--work-dir", work_dir, "--compress", cmd.compression, "--verify", cmd.verify});
  if (cmd.records_inline) args.push_back("--records-inline");
  return name == "embedded" ? warmup::cli::ParseLoad(args) : warmup::cli::ParseReindex(args);
}

// One `warmup bench`: OUT and what it makes there (OUT/work, OUT/datasets,
// in an OUT that was empty), and the runs, one child at a time.
class Bencher {
 public:
  Bencher(const BenchCommand& cmd, std::string self, warmup::cli::SignalWatcher& signals)
      : cmd_(cmd), self_(std::move(self)), signals_(signals), children_(signals) {}

  // The disk probes into `figures`; an exit status when bench must end.
  std::optional<int> ProbeDisk(warmup::BenchFigures& figures) {
    if (cmd_.disk_mib > 0) {
      std::cerr << "warmup bench: the disk: " << cmd_.disk_probes << " x " << cmd_.disk_mib
                << " MiB with fdatasync in " << out_.string() << "\n";
      for (int probe = 0; probe < cmd_.disk_probes && signals_.received() == 0; ++probe) {
        auto disk = warmup::MeasureSequentialWrite(out_.string(), int64_t{cmd_.disk_mib} << 20);
        if (!disk.ok()) return FailWith(disk.status());
        figures.disk.push_back(*disk);
      }
    } else {
      figures.disk_absent = "--disk-mib 0";
    }
    if (signals_.received() != 0) return Interrupted("after the disk probe");
    return std::nullopt;
  }

  // The sitting `label`: its snapshot, then its runs and the round trip, in
  // `sitting`; an exit status when bench must end.
  std::optional<int> Sit(const std::string& label, warmup::BenchSitting& sitting) {
    sitting.label = label;
    Sitting s{label, out_ / ("sitting-" + label), cmd_.pristine_dir, cmd_.catalog};
    std::error_code ec;
    fs::create_directories(s.reports, ec);
    if (auto end = Snapshot(s, sitting.snapshot)) return end;
    const std::string during = "during sitting " + label;
    if (!Run(s, "null", sitting.null_run, sitting.null_absent) ||
        !Run(s, "embedded", sitting.embedded, sitting.embedded_absent)) {
      return Interrupted(during);
    }
    if (cmd_.remote) {
      auto rtt = RoundTripMicros(work_ / "rtt", cmd_.rtt_calls);
      fs::remove_all(work_ / "rtt", ec);
      if (!rtt.ok()) return Failed(rtt.status().WithContext("timing unary round trips"));
      sitting.rtt_p50_us = *rtt;
      if (!Run(s, "remote", sitting.remote, sitting.remote_absent)) return Interrupted(during);
    } else {
      sitting.remote_absent = "--no-remote";
    }
    if (!cmd_.evitadb_command.empty()) {
      if (!Run(s, "evitadb", sitting.evitadb, sitting.evitadb_absent)) return Interrupted(during);
    } else {
      sitting.evitadb_absent = "no --evitadb-command";
    }
    if (!cmd_.keep_datasets && !cmd_.scales.empty()) fs::remove_all(datasets_ / ("scale-" + label), ec);
    return std::nullopt;
  }

  // Removes OUT/work, and OUT/datasets unless --keep-datasets.
  void Tidy() {
    std::error_code ec;
    fs::remove_all(work_, ec);
    if (!cmd_.keep_datasets) fs::remove_all(datasets_, ec);
  }

  bool every_run_stood() const { return every_run_stood_; }

 private:
  int Interrupted(const std::string& where) {
    Tidy();
    std::cerr << "warmup bench: interrupted " << where << "; no table was made, the reports so far are in "
              << out_.string() << "\n";
    return kExitFailed;
  }

  int Failed(const warmup::Status& status) {
    Tidy();
    return FailWith(status);
  }

  // The snapshot the sitting's runs read: --pristine-dir, one generated at
  // its scale, or --pristine-dir exported once through a source server;
  // `described` says which. An exit status when bench must end.
  std::optional<int> Snapshot(Sitting& s, std::string& described) {
    const std::string given = cmd_.pristine_dir + (cmd_.catalog.empty() ? "" : " (" + cmd_.catalog + ")");
    described = given;
    if (!cmd_.scales.empty()) {
      warmup::GeneratorOptions generator = cmd_.generator;
      generator.scale = std::stod(s.label);
      const fs::path parent = datasets_ / ("scale-" + s.label);
      std::cerr << "warmup bench: generating " << generator.profile << " at scale " << s.label << " in "
                << parent.string() << "\n";
      auto snapshot = warmup::GenerateSnapshot(generator, parent.string(), warmup::SnapshotWriteOptions{});
      if (!snapshot.ok()) return Failed(snapshot.status());
      s.pristine = parent.string();
      described = *snapshot + (cmd_.keep_datasets ? "" : " (generated, removed after its runs)");
    }
    if (signals_.received() != 0) return Interrupted("before sitting " + s.label + "'s runs");
    if (cmd_.source_server.command.empty()) return std::nullopt;
    // Once, not every run: every run of the sitting then reads the export at
    // disk speed, with no reader JVM in its figures.
    const fs::path exported = datasets_ / "source";
    const fs::path output = s.reports / "source-export.txt";
    std::vector<std::string> argv = {self_,
                                     "export",
                                     "--pristine-dir",
                                     cmd_.pristine_dir,
                                     "--source-server-command",
                                     cmd_.source_server.command,
                                     "--source-server-start-timeout",
                                     std::to_string(cmd_.source_server.start_timeout_seconds),
                                     "--source-work-dir",
                                     (work_ / "source").string(),
                                     "--out",
                                     exported.string()};
    if (!cmd_.catalog.empty()) argv.insert(argv.end(), {"--catalog", cmd_.catalog});
    if (!cmd_.source_server.xmx.empty()) {
      argv.insert(argv.end(), {"--source-server-xmx", cmd_.source_server.xmx});
    }
    std::cerr << "warmup bench: exporting " << cmd_.pristine_dir << " once through a source server into "
              << exported.string() << "\n";
    auto exit_code = children_.Run(argv, output);
    if (signals_.received() != 0) return Interrupted("while exporting the source");
    if (!exit_code.ok() || *exit_code != 0) {
      return Failed(warmup::FailedPreconditionError(
          "the export of " + cmd_.pristine_dir + " through the source server failed (" +
          (exit_code.ok() ? "exit " + std::to_string(*exit_code) : exit_code.status().ToString()) +
          "); its output is in " + output.string()));
    }
    s.pristine = exported.string();
    s.catalog.clear();  // the export holds the one catalog
    described = given + ", exported once through a source server (" + cmd_.source_server.command + ") into " +
                exported.string() + (cmd_.keep_datasets ? "" : ", removed after its runs");
    return std::nullopt;
  }

  // `run` in a child, announced on stderr as the sitting's run `what`.
  warmup::StatusOr<int> InChild(const std::string& what, const LoadCommand& run, const fs::path& output) {
    std::string line;
    for (const std::string& arg : run.command_line) line += (line.empty() ? "" : " ") + arg;
    std::cerr << "warmup bench: sitting " << what << ": " << line << "\n";
    return warmup::cli::RunInChild(children_, self_, run, output);
  }

  // The sitting's run `name` in a child, its output in REPORTS/NAME.txt, and
  // its report read into `into`, or why not into `absent`. False when a stop
  // request ends the sitting.
  bool Run(const Sitting& s, const std::string& name, std::optional<warmup::BenchRun>& into,
           std::string& absent) {
    const fs::path output = s.reports / (name + ".txt");
    const warmup::StatusOr<LoadCommand> run = SittingRun(cmd_, s, name, work_);
    const warmup::StatusOr<int> exit_code =
        run.ok() ? InChild(s.label + ", " + name, *run, output) : warmup::StatusOr<int>(run.status());
    if (!exit_code.ok()) {
      absent = exit_code.status().ToString();
      std::cerr << "warmup bench: sitting " << s.label << ", " << name << ": " << absent << "\n";
    } else if (auto read = warmup::ReadBenchRun(run->report.report_json); read.ok()) {
      into = *read;
    } else {
      absent = *exit_code == 0 ? read.status().ToString()
                               : "it exited " + std::to_string(*exit_code) +
                                     " without a report; its output is in " + output.string();
      std::cerr << "warmup bench: " << name << ": " << absent << "\n";
    }
    const bool stood = into && *exit_code == 0;
    if (!stood) every_run_stood_ = false;
    if (const std::string* work_dir = run.ok() ? warmup::WorkDirOf(run->target) : nullptr) {
      KeepOrRemoveWork("bench", s.label + ", " + name, *work_dir, s.reports / (name + "-work"), !stood);
    }
    return signals_.received() == 0;
  }

  const BenchCommand& cmd_;
  const std::string self_;
  warmup::cli::SignalWatcher& signals_;
  warmup::cli::ChildRunner children_;
  const fs::path out_ = cmd_.out_dir;
  const fs::path work_ = out_ / "work";
  const fs::path datasets_ = out_ / "datasets";
  bool every_run_stood_ = true;
};

// The table in OUT/bench.txt and OUT/bench.json, and on stdout with what
// its exit status means; returns that status.
int WriteTable(const BenchCommand& cmd, const warmup::BenchFigures& figures, bool every_run_stood) {
  const fs::path out = cmd.out_dir;
  const std::vector<warmup::BenchRow> rows = warmup::BenchTable(figures);
  const std::string text = warmup::RenderBenchText(figures, rows);
  if (auto s = WriteFile(out / "bench.txt", text); !s.ok()) return FailWith(s);
  if (auto s = WriteFile(out / "bench.json", warmup::RenderBenchJson(figures, rows)); !s.ok())
    return FailWith(s);
  std::cout << text << "table and reports: " << out.string() << "\n";
  const int exit_code = warmup::BenchExitCode(rows, every_run_stood, cmd.require_targets);
  if (exit_code == 1)
    std::cout << "warmup bench: a run did not complete and verify (exit 1); its rows say which\n";
  if (exit_code == 3) std::cout << "warmup bench: a target is not met (exit 3, --require-targets)\n";
  if (exit_code == 4) {
    std::cout
        << "warmup bench: no target is missed, but one is too close to call (exit 4, --require-targets)\n";
  }
  return exit_code;
}

}  // namespace

int Bench(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseBench(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  if (auto s = PrepareOutDir(cmd->out_dir, "warmup bench keeps each sitting's reports apart"); !s.ok()) {
    return FailWith(s);
  }
  auto self = warmup::cli::ThisBinary();
  if (!self.ok()) return FailWith(self.status());
  warmup::cli::SignalWatcher signals("bench", false, "stopping the current run");
  Bencher bench(*cmd, *self, signals);
  warmup::BenchFigures figures;
  if (auto end = bench.ProbeDisk(figures)) return *end;
  for (const std::string& label : SittingLabels(*cmd)) {
    if (auto end = bench.Sit(label, figures.sittings.emplace_back())) return *end;
  }
  bench.Tidy();
  return WriteTable(*cmd, figures, bench.every_run_stood());
}
