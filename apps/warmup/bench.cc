// warmup bench: the write path's table in one sitting. Each run is a `warmup
// load` or `warmup reindex` of this binary in a process of its own (so that
// each has its own peak RSS), with its reports kept in OUT; the round trip and
// the disk are probed here; the table is the library's (warmup/bench.h).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "common/run_command.h"
#include "warmup/bench.h"
#include "warmup/catalog_admin.h"
#include "warmup/disk_bandwidth.h"
#include "warmup/generator.h"
#include "warmup/server.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

// One child run at a time; a stop request is passed on to it, in its own
// process group so that a terminal's ^C reaches it once, through here.
class ChildRunner {
 public:
  explicit ChildRunner(warmup::cli::SignalWatcher& signals) : signals_(signals) {}

  // Runs `argv` with its stdout in `stdout_file`; its exit status, or 128 +
  // the signal that ended it.
  warmup::StatusOr<int> Run(const std::vector<std::string>& argv, const fs::path& stdout_file) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) return warmup::InternalError("cannot start " + argv[0] + ": " + std::strerror(spawned));
    {
      std::lock_guard lock(mu_);
      running_ = pid;
    }
    signals_.OnStop([this] {
      std::lock_guard lock(mu_);
      if (running_ > 0) ::kill(running_, signals_.received() == SIGINT ? SIGINT : SIGTERM);
    });
    // Waited for without reaping first, so that the pid a stop request
    // signals is never one the system has handed to another process.
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    {
      std::lock_guard lock(mu_);
      running_ = 0;
    }
    signals_.OnStop([] {});  // nothing to pass a later request on to
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  warmup::cli::SignalWatcher& signals_;
  std::mutex mu_;
  pid_t running_ = 0;
};

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

// A run's work directory after it: removed when the run stood, else moved
// to `keep` (beside its report, out of the OUT/work that bench removes), so
// that a failed run's server log and data are there to read.
void KeepOrRemoveWork(const fs::path& work, const fs::path& keep, bool failed) {
  std::error_code ec;
  if (!fs::exists(work, ec)) return;
  if (failed) {
    fs::rename(work, keep, ec);
    if (!ec) {
      std::cerr << "warmup bench: the failed run's work directory (its server's log and data) is kept in "
                << keep.string() << "\n";
      return;
    }
    std::cerr << "warmup bench: cannot keep the failed run's work directory " << work.string() << " as "
              << keep.string() << ": " << ec.message() << "\n";
  }
  fs::remove_all(work, ec);
}

}  // namespace

int Bench(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseBench(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  const fs::path out = cmd->out_dir;
  if (auto s = PrepareOutDir(out, "warmup bench keeps each sitting's reports apart"); !s.ok())
    return FailWith(s);
  std::error_code ec;
  const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  if (ec) return FailWith(warmup::InternalError("cannot find this binary (/proc/self/exe): " + ec.message()));
  warmup::cli::SignalWatcher signals("bench", false, "stopping the current run");
  ChildRunner children(signals);
  // OUT/work and OUT/datasets are made here, in an OUT that was empty.
  const fs::path work = out / "work";
  const fs::path datasets = out / "datasets";
  auto tidy = [&] {
    fs::remove_all(work, ec);
    if (!cmd->keep_datasets) fs::remove_all(datasets, ec);
  };
  auto interrupted = [&](const std::string& where) {
    tidy();
    std::cerr << "warmup bench: interrupted " << where << "; no table was made, the reports so far are in "
              << out.string() << "\n";
    return kExitFailed;
  };

  warmup::BenchFigures figures;
  if (cmd->disk_mib > 0) {
    std::cerr << "warmup bench: the disk: " << cmd->disk_probes << " x " << cmd->disk_mib
              << " MiB with fdatasync in " << out.string() << "\n";
    for (int probe = 0; probe < cmd->disk_probes && signals.received() == 0; ++probe) {
      auto disk = warmup::MeasureSequentialWrite(out.string(), int64_t{cmd->disk_mib} << 20);
      if (!disk.ok()) return FailWith(disk.status());
      figures.disk.push_back(*disk);
    }
  } else {
    figures.disk_absent = "--disk-mib 0";
  }
  if (signals.received() != 0) return interrupted("after the disk probe");

  std::vector<std::string> labels = cmd->scales;
  if (labels.empty()) {  // the snapshot's directory names its sitting ("DIR/" too)
    const fs::path dir = fs::path(cmd->pristine_dir).lexically_normal();
    labels.push_back((dir.has_filename() ? dir : dir.parent_path()).filename().string());
  }
  bool every_run_stood = true;
  for (const std::string& label : labels) {
    warmup::BenchSitting sitting;
    sitting.label = label;
    std::string pristine = cmd->pristine_dir;
    const fs::path reports = out / ("sitting-" + label);
    fs::create_directories(reports, ec);
    if (!cmd->scales.empty()) {
      warmup::GeneratorOptions generator = cmd->generator;
      generator.scale = std::stod(label);
      const fs::path parent = datasets / ("scale-" + label);
      std::cerr << "warmup bench: generating " << generator.profile << " at scale " << label << " in "
                << parent.string() << "\n";
      auto snapshot = warmup::GenerateSnapshot(generator, parent.string(), warmup::SnapshotWriteOptions{});
      if (!snapshot.ok()) {
        tidy();
        return FailWith(snapshot.status());
      }
      pristine = parent.string();
      sitting.snapshot = *snapshot + (cmd->keep_datasets ? "" : " (generated, removed after its runs)");
    } else {
      sitting.snapshot = cmd->pristine_dir + (cmd->catalog.empty() ? "" : " (" + cmd->catalog + ")");
    }
    if (signals.received() != 0) return interrupted("before sitting " + label + "'s runs");
    std::string catalog = cmd->catalog;
    if (!cmd->source_server.command.empty()) {
      // Once, not every run: every run of the sitting then reads the export at
      // disk speed, with no reader JVM in its figures.
      const fs::path exported = datasets / "source";
      std::vector<std::string> argv = {self,
                                       "export",
                                       "--pristine-dir",
                                       cmd->pristine_dir,
                                       "--source-server-command",
                                       cmd->source_server.command,
                                       "--source-server-start-timeout",
                                       std::to_string(cmd->source_server.start_timeout_seconds),
                                       "--source-work-dir",
                                       (work / "source").string(),
                                       "--out",
                                       exported.string()};
      if (!cmd->catalog.empty()) argv.insert(argv.end(), {"--catalog", cmd->catalog});
      if (!cmd->source_server.xmx.empty()) {
        argv.insert(argv.end(), {"--source-server-xmx", cmd->source_server.xmx});
      }
      std::cerr << "warmup bench: exporting " << cmd->pristine_dir << " once through a source server into "
                << exported.string() << "\n";
      auto exit_code = children.Run(argv, reports / "source-export.txt");
      if (signals.received() != 0) return interrupted("while exporting the source");
      if (!exit_code.ok() || *exit_code != 0) {
        tidy();
        return FailWith(warmup::FailedPreconditionError(
            "the export of " + cmd->pristine_dir + " through the source server failed (" +
            (exit_code.ok() ? "exit " + std::to_string(*exit_code) : exit_code.status().ToString()) +
            "); its output is in " + (reports / "source-export.txt").string()));
      }
      pristine = exported.string();
      catalog.clear();  // the export holds the one catalog
      sitting.snapshot = cmd->pristine_dir + (cmd->catalog.empty() ? "" : " (" + cmd->catalog + ")") +
                         ", exported once through a source server (" + cmd->source_server.command +
                         ") into " + exported.string() +
                         (cmd->keep_datasets ? "" : ", removed after its runs");
    }

    auto run = [&](const char* name, const std::string& command, std::vector<std::string> flags,
                   std::optional<warmup::BenchRun>& into, std::string& absent) -> bool {
      const fs::path json = reports / (std::string(name) + ".json");
      std::vector<std::string> argv = {self,    command, "--pristine-dir", pristine,     "--quiet",
                                       "--run", name,    "--report-json",  json.string()};
      if (!catalog.empty()) argv.insert(argv.end(), {"--catalog", catalog});
      argv.insert(argv.end(), flags.begin(), flags.end());
      std::string line = "warmup " + command;
      for (size_t i = 2; i < argv.size(); ++i) line += " " + argv[i];
      std::cerr << "warmup bench: sitting " << label << ", " << name << ": " << line << "\n";
      auto exit_code = children.Run(argv, reports / (std::string(name) + ".txt"));
      if (!exit_code.ok()) {
        absent = exit_code.status().ToString();
        std::cerr << "warmup bench: " << absent << "\n";
        every_run_stood = false;
        KeepOrRemoveWork(work / name, reports / (std::string(name) + "-work"), true);
        return signals.received() == 0;
      }
      if (*exit_code != 0) every_run_stood = false;
      auto read = warmup::ReadBenchRun(json.string());
      if (read.ok()) {
        into = *read;
      } else {
        absent = *exit_code == 0
                     ? read.status().ToString()
                     : "it exited " + std::to_string(*exit_code) + " without a report; its output is in " +
                           (reports / (std::string(name) + ".txt")).string();
        std::cerr << "warmup bench: " << name << ": " << absent << "\n";
        every_run_stood = false;
      }
      KeepOrRemoveWork(work / name, reports / (std::string(name) + "-work"), !into || *exit_code != 0);
      return signals.received() == 0;
    };
    // The engine's flags, for the embedded run and the started serve.
    std::vector<std::string> engine = {"--compress", cmd->compression, "--verify", cmd->verify};
    if (cmd->records_inline) engine.push_back("--records-inline");
    auto with = [](std::vector<std::string> flags, const std::vector<std::string>& more) {
      flags.insert(flags.end(), more.begin(), more.end());
      return flags;
    };
    if (!run("null", "load", {"--target", "null"}, sitting.null_run, sitting.null_absent) ||
        !run("embedded", "load",
             with({"--target", "embedded", "--work-dir", (work / "embedded").string()}, engine),
             sitting.embedded, sitting.embedded_absent)) {
      return interrupted("during sitting " + label);
    }
    if (cmd->remote) {
      auto rtt = RoundTripMicros(work / "rtt", cmd->rtt_calls);
      fs::remove_all(work / "rtt", ec);
      if (!rtt.ok()) {
        tidy();
        return FailWith(rtt.status().WithContext("timing unary round trips"));
      }
      sitting.rtt_p50_us = *rtt;
      if (!run("remote", "reindex", with({"--work-dir", (work / "remote").string()}, engine), sitting.remote,
               sitting.remote_absent)) {
        return interrupted("during sitting " + label);
      }
    } else {
      sitting.remote_absent = "--no-remote";
    }
    if (!cmd->evitadb_command.empty()) {
      std::vector<std::string> flags = {"--server-command",          cmd->evitadb_command, "--work-dir",
                                        (work / "evitadb").string(), "--verify",           cmd->verify};
      if (!cmd->evitadb_xmx.empty()) flags.insert(flags.end(), {"--server-xmx", cmd->evitadb_xmx});
      if (!run("evitadb", "reindex", flags, sitting.evitadb, sitting.evitadb_absent)) {
        return interrupted("during sitting " + label);
      }
    } else {
      sitting.evitadb_absent = "no --evitadb-command";
    }
    if (!cmd->keep_datasets && !cmd->scales.empty()) fs::remove_all(datasets / ("scale-" + label), ec);
    figures.sittings.push_back(std::move(sitting));
  }
  tidy();

  const std::vector<warmup::BenchRow> rows = warmup::BenchTable(figures);
  const std::string text = warmup::RenderBenchText(figures, rows);
  if (auto s = WriteFile(out / "bench.txt", text); !s.ok()) return FailWith(s);
  if (auto s = WriteFile(out / "bench.json", warmup::RenderBenchJson(figures, rows)); !s.ok())
    return FailWith(s);
  std::cout << text << "table and reports: " << out.string() << "\n";
  const int exit_code = warmup::BenchExitCode(rows, every_run_stood, cmd->require_targets);
  if (exit_code == 1)
    std::cout << "warmup bench: a run did not complete and verify (exit 1); its rows say which\n";
  if (exit_code == 3) std::cout << "warmup bench: a target is not met (exit 3, --require-targets)\n";
  if (exit_code == 4) {
    std::cout
        << "warmup bench: no target is missed, but one is too close to call (exit 4, --require-targets)\n";
  }
  return exit_code;
}
