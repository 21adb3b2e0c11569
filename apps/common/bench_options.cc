// warmup bench's flags.
#include <algorithm>
#include <cmath>

#include "common/option_parsing.h"
#include "common/options.h"

namespace warmup::cli {

StatusOr<BenchCommand> ParseBench(const std::vector<std::string>& args) {
  BenchCommand cmd;
  std::string scales = "0.1";
  bool no_remote = false;
  bool records_background = false;
  po::options_description o("options");
  o.add_options()("help", "show this help")(
      "scales", po::value(&scales)->default_value(scales),
      "generated sittings, comma-separated, e.g. 0.1,1.0 (the generator's --scale)")(
      "profile", po::value(&cmd.generator.profile)->default_value("senesi"),
      ("the generator's profile: " + GeneratorProfilesHelp()).c_str())(
      "seed", po::value(&cmd.generator.seed)->default_value(1), "the generator's seed")(
      "pristine-dir", po::value(&cmd.pristine_dir), "one sitting on this snapshot instead of generated ones")(
      "catalog", po::value(&cmd.catalog), "the snapshot in --pristine-dir when it holds several")(
      "source-server-command", po::value(&cmd.source_server.command),
      "--pristine-dir holds a server's own catalog folder or backup zip: export it once through this command "
      "(as warmup export does) and run the sitting on the export (placeholders {port} {data} {run} {gclog} "
      "{xmx})")("source-server-xmx", po::value(&cmd.source_server.xmx), "the source server command's {xmx}")(
      "source-server-start-timeout", po::value(&cmd.source_server.start_timeout_seconds)->default_value(300),
      "seconds the source server may take to start and open the catalog ALIVE")(
      "out", po::value(&cmd.out_dir)->default_value(cmd.out_dir),
      "directory for the reports, the table (bench.txt, bench.json) and the generated datasets; absent or "
      "empty")(
      "compress", po::value(&cmd.compression)->default_value(cmd.compression),
      "records of the embedded engine and the started serve: none | zstd | deflate (raw deflate at level 3, "
      "evitaDB's codec and the default here; any other leaves the time rows not quoted)")(
      "records-inline", po::bool_switch(),
      "the embedded engine and the started serve: each upsert writes its entity's records itself, as "
      "evitaDB's does (the default here)")(
      "records-background", po::bool_switch(&records_background),
      "the embedded engine and the started serve: a second thread writes new entities' records, and "
      "upsert times leave that work out (the evitaDB row is then not quoted)")(
      "verify", po::value(&cmd.verify)->default_value(cmd.verify),
      "what every run but the null one checks after goLive: counts | content (every entity read back and "
      "compared)")("rtt-calls", po::value(&cmd.rtt_calls)->default_value(cmd.rtt_calls),
                   "unary round trips timed per sitting (after 200 not counted)")(
      "disk-mib", po::value(&cmd.disk_mib)->default_value(cmd.disk_mib),
      "MiB the disk probe writes in --out (0: no probe, the goLive row is not measured)")(
      "disk-probes", po::value(&cmd.disk_probes)->default_value(cmd.disk_probes),
      "disk probes in a row: the goLive row holds their median, and is too close to call when the slowest "
      "and the fastest would decide it differently")("no-remote", po::bool_switch(&no_remote),
                                                     "no started-server run (its rows are not measured)")(
      "evitadb-command", po::value(&cmd.evitadb_command),
      "evitaDB's server as a reindex --server-command (placeholders {port} {data} {run} {gclog} {xmx})")(
      "evitadb-xmx", po::value(&cmd.evitadb_xmx), "its heap, for {xmx}")(
      "keep-datasets", po::bool_switch(&cmd.keep_datasets), "keep the generated snapshots in OUT/datasets")(
      "require-targets", po::bool_switch(&cmd.require_targets), "exit 3 when a measured target is not met");
  auto vm =
      Parse(args, o, {},
            "usage: warmup bench [--scales 0.1,1.0 | --pristine-dir DIR [--source-server-command CMD]]\n"
            "                    [--out DIR] [--compress C]\n"
            "                    [--records-background] [--verify counts|content]\n"
            "                    [--evitadb-command CMD --evitadb-xmx X] [--require-targets]\n"
            "On one snapshot per sitting: a null-target load, an embedded load, a reindex against a\n"
            "started warmup serve (and evitaDB's server when given), the bare unary round trip and the\n"
            "disk's write bandwidth, each run a `warmup load`/`reindex` of its own with its report kept;\n"
            "then the write path's targets as ratios (docs/performance.md).\n"
            "Exit 0: every run completed and verified; 1: a run failed or could not be made; 3: with\n"
            "--require-targets, a measured target is not met.",
            &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  cmd.remote = !no_remote;
  if (records_background && Given(*vm, "records-inline")) {
    return InvalidArgumentError("--records-inline and --records-background say opposite things; give one");
  }
  cmd.records_inline = !records_background;
  if (Given(*vm, "pristine-dir")) {
    if (auto s = RefuseIgnored(*vm, {"scales", "profile", "seed"}, "with --pristine-dir"); !s.ok()) return s;
    // The export a source server makes is a dataset of OUT/datasets like a generated one.
    if (cmd.source_server.command.empty()) {
      if (auto s =
              RefuseIgnored(*vm, {"keep-datasets"}, "with --pristine-dir and no --source-server-command");
          !s.ok()) {
        return s;
      }
    }
  } else {
    if (!cmd.source_server.command.empty()) {
      return InvalidArgumentError(
          "--source-server-command reads the server's catalog folder or backup zip in "
          "--pristine-dir; give both");
    }
    if (Given(*vm, "catalog"))
      return InvalidArgumentError("--catalog names a snapshot in --pristine-dir; give both");
    if (auto s = CheckGeneratorProfile(cmd.generator.profile); !s.ok()) return s;
    size_t start = 0;
    while (start <= scales.size()) {
      const size_t comma = std::min(scales.find(',', start), scales.size());
      const std::string item = scales.substr(start, comma - start);
      size_t used = 0;
      double value = std::nan("");
      try {
        value = std::stod(item, &used);
      } catch (const std::exception&) {
      }
      if (item.empty() || used != item.size() || !(value > 0 && value <= 1000)) {
        return InvalidArgumentError("--scales takes numbers above 0 and at most 1000, comma-separated; '" +
                                    item + "' in '" + scales + "' is not one");
      }
      if (std::find(cmd.scales.begin(), cmd.scales.end(), item) != cmd.scales.end()) {
        return InvalidArgumentError("--scales names " + item + " twice");
      }
      cmd.scales.push_back(item);
      start = comma + 1;
    }
  }
  if (auto records = ParseRecordCompression(cmd.compression); !records.ok()) return records.status();
  if (cmd.verify != "counts" && cmd.verify != "content") {
    return InvalidArgumentError("--verify takes counts or content (a bench run always verifies), not '" +
                                cmd.verify + "'");
  }
  if (auto s = CheckRange("rtt-calls", cmd.rtt_calls, 10, 1'000'000); !s.ok()) return s;
  if (auto s = CheckRange("disk-mib", cmd.disk_mib, 0, 1 << 20); !s.ok()) return s;
  if (auto s = CheckRange("disk-probes", cmd.disk_probes, 1, 20); !s.ok()) return s;
  if (cmd.source_server.command.empty()) {
    if (auto s = RefuseIgnored(*vm, {"source-server-xmx", "source-server-start-timeout"},
                               "without --source-server-command");
        !s.ok()) {
      return s;
    }
  } else if (auto s = CheckRange("source-server-start-timeout", cmd.source_server.start_timeout_seconds, 1,
                                 kDaySeconds);
             !s.ok()) {
    return s;
  }
  if (!cmd.evitadb_xmx.empty() && cmd.evitadb_command.empty()) {
    return InvalidArgumentError("--evitadb-xmx fills {xmx} of --evitadb-command; give both");
  }
  // Before the first sitting, in bench's own flags: the runs would refuse
  // them only after the disk probe and the runs before them, in theirs.
  if (auto s = RequireXmx(cmd.evitadb_command, cmd.evitadb_xmx, "--evitadb-command", "--evitadb-xmx");
      !s.ok()) {
    return s;
  }
  if (auto s = RequireXmx(cmd.source_server.command, cmd.source_server.xmx, "--source-server-command",
                          "--source-server-xmx");
      !s.ok()) {
    return s;
  }
  return cmd;
}

}  // namespace warmup::cli
