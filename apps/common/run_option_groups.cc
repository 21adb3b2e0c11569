#include "common/run_option_groups.h"

#include <range/v3/range/conversion.hpp>
#include <range/v3/range/primitives.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/split.hpp>

namespace warmup::cli {

po::options_description SourceGroup::Options() {
  po::options_description group("source: --pristine-dir [--catalog], or --source");
  group.add_options()("pristine-dir", po::value(&dir),
                      "parent of the <catalog>/ snapshot (or an export zip)")(
      "catalog", po::value(&catalog), "the snapshot (default: the only one in --pristine-dir)")(
      "source", po::value(&url), "read a live catalog instead: grpc://HOST:PORT/CATALOG (grpcs:// over TLS)")(
      "prewarm-source", po::bool_switch(&prewarm),
      "read the whole snapshot into the page cache before the run (a warm source)")(
      "drop-source-cache", po::bool_switch(&drop_cache),
      "drop the snapshot from the page cache before the run (a cold source)")(
      "allow-not-alive", po::bool_switch(&allow_not_alive),
      "with --source: read a catalog that is not ALIVE (a load under way or kept, or one its server is still "
      "opening: perhaps not whole)")(
      "source-server-command", po::value(&server.command),
      "--pristine-dir holds a server's own catalog folder (evitaDB's <CATALOG>/) or is its backup zip: start "
      "this command on a copy of the folder and read the catalog through it (placeholders {port} {data} "
      "{run} "
      "{gclog} {xmx})")("source-server-xmx", po::value(&server.xmx), "the source server command's {xmx}")(
      "source-server-start-timeout", po::value(&server.start_timeout_seconds)->default_value(300),
      "seconds the source server may take to start and open the catalog ALIVE")(
      "source-work-dir", po::value(&server_work_dir),
      "the source server's work directory: the folder's copy (or the zip's folder), its log and GC log "
      "(default: --work-dir + "
      "\"-source\")");
  return group;
}

Status SourceGroup::Finish(const po::variables_map& vm, const ClientTlsOptions& tls) {
  if (dir.empty() == url.empty()) {
    return InvalidArgumentError("give exactly one of --pristine-dir and --source");
  }
  if (prewarm && drop_cache) {
    return InvalidArgumentError("give --prewarm-source or --drop-source-cache, not both");
  }
  if (!catalog.empty()) {
    if (!url.empty())
      return InvalidArgumentError("--catalog goes with --pristine-dir; --source names its own");
    if (auto s = CheckName(catalog, "--catalog"); !s.ok()) return s;
  }
  if (server.command.empty()) {
    if (auto s = RefuseIgnored(vm, {"source-server-xmx", "source-server-start-timeout", "source-work-dir"},
                               "without --source-server-command");
        !s.ok()) {
      return s;
    }
  } else {
    if (!url.empty()) {
      return InvalidArgumentError(
          "--source-server-command reads the catalog folder in --pristine-dir; --source "
          "reads a server that is already running: give one of them");
    }
    if (auto s =
            RefuseIgnored(vm, {"prewarm-source", "drop-source-cache"},
                          "with --source-server-command: the folder is read by the server, not from the page "
                          "cache here");
        !s.ok()) {
      return s;
    }
    if (auto s = CheckRange("source-server-start-timeout", server.start_timeout_seconds, 1, kDaySeconds);
        !s.ok()) {
      return s;
    }
    if (auto s = RequireXmx(server.command, server.xmx, "--source-server-command", "--source-server-xmx");
        !s.ok()) {
      return s;
    }
  }
  if (url.empty()) {
    if (auto s = RefuseIgnored(vm, {"allow-not-alive"}, "without --source"); !s.ok()) return s;
    if (!server.command.empty()) {
      spec = ServerFolderSourceSpec{dir, catalog, server, server_work_dir};
    } else {
      spec = SnapshotSourceSpec{dir, catalog,
                                prewarm      ? SourceCacheStep::kPrewarm
                                : drop_cache ? SourceCacheStep::kDrop
                                             : SourceCacheStep::kAsFound};
    }
    return OkStatus();
  }
  if (auto s = RefuseIgnored(vm, {"prewarm-source", "drop-source-cache"},
                             "with --source: a live catalog's page cache is its server's");
      !s.ok()) {
    return s;
  }
  auto parsed = ParseGrpcUrl(url, "--source");
  if (!parsed.ok()) return parsed.status();
  spec = LiveSourceSpec{parsed->address, parsed->catalog, TlsFor(tls, parsed->tls), allow_not_alive};
  return OkStatus();
}

po::options_description TargetGroup::Options() {
  po::options_description group("target");
  if (verb != RunVerb::kProfile) {
    group.add_options()("target",
                        po::value(&kind)->default_value(verb == RunVerb::kReindex ? "remote" : "embedded"),
                        verb == RunVerb::kReindex ? "remote (start warmup serve, or use --address) | embedded"
                                                  : "embedded | remote | null")(
        "address", po::value(&remote.address)->default_value(remote.address), "remote target: host:port")(
        "upsert-timeout", po::value(&remote.deadlines.upsert_timeout_seconds)->default_value(3600),
        "remote target: seconds one upsert may take before the load aborts (a server in WARM_UP may "
        "stall)")("golive-timeout", po::value(&remote.deadlines.golive_timeout_seconds)->default_value(0),
                  "remote target: client-side goLive limit in seconds (0 = none)")(
        "server-pid", po::value(&remote.server_pid)->default_value(0),
        "with --address: the server's pid on this machine, sampled for its RSS and CPU as a started "
        "server's (never signalled)")(
        "server-gc-log", po::value(&remote.server_gc_log),
        "with --server-pid: the server's GC log (-Xlog:gc:file=...), read for this run's collections");
  }
  group.add_options()(
      "work-dir", po::value(&local.work_dir)->default_value(local.work_dir),
      verb == RunVerb::kReindex
          ? "the embedded target's directory, or the started server's (WORK/data) beside its log; used only "
            "when absent, empty or carrying warmup's marker, and only what warmup made there is cleared; no "
            "source or output may lie inside it"
          : "the embedded target's directory; used only when absent, empty or carrying warmup's marker, and "
            "only what warmup made there is cleared; no source or output may lie inside it")(
      "compress", po::value(&compression)->default_value("none"),
      (std::string("records (storage.compress): ") + kRecordCompressHelp).c_str())(
      "records-inline", po::bool_switch(&local.records_inline), kRecordsInlineHelp);
  return group;
}

po::options_description TargetGroup::Hidden() {
  po::options_description hidden;
  if (verb == RunVerb::kReindex) {
    hidden.add_options()("target-mode", po::value(&mode), "older spelling of --target");
  }
  if (verb == RunVerb::kProfile) {
    hidden.add_options()("target", po::value(&kind)->default_value("embedded"), "embedded only");
  }
  return hidden;
}

Status TargetGroup::Finish(const po::variables_map& vm, VerifyMode verify) {
  if (verb == RunVerb::kProfile && kind != "embedded") {
    return InvalidArgumentError("warmup-profile profiles the embedded engine; --target " + kind +
                                " is for warmup load (warmup serve --profiler profiles a server)");
  }
  if (!mode.empty()) {
    if (Given(vm, "target")) return InvalidArgumentError("give --target or --target-mode, not both");
    kind = mode;
  }
  if (verb == RunVerb::kReindex && kind != "remote" && kind != "embedded") {
    return InvalidArgumentError("--target must be remote or embedded, not '" + kind + "'");
  }
  auto parsed = ParseTargetKind(kind);
  // A started server is reindex's own; an open target is a library caller's.
  if (!parsed.ok() || *parsed == TargetKind::kStartedServer || *parsed == TargetKind::kOpen) {
    return InvalidArgumentError("--target must be embedded, remote or null, not '" + kind + "'");
  }
  TargetKind target_kind = *parsed;
  // reindex starts its own server unless --address names one.
  if (verb == RunVerb::kReindex && target_kind == TargetKind::kRemote && !Given(vm, "address")) {
    target_kind = TargetKind::kStartedServer;
  }
  const std::string with_kind = "with --target " + kind;
  switch (target_kind) {
    case TargetKind::kNull:
      if (verify == VerifyMode::kContent) {
        return InvalidArgumentError(
            "--verify content reads the catalog back, and --target null keeps nothing to read");
      }
      if (auto s = RefuseIgnored(vm,
                                 {"work-dir", "compress", "records-inline", "address", "golive-timeout",
                                  "upsert-timeout", "tls", "server-pid", "server-gc-log"},
                                 with_kind);
          !s.ok()) {
        return s;
      }
      break;
    case TargetKind::kEmbedded:
      if (auto s = RefuseIgnored(
              vm, {"address", "golive-timeout", "upsert-timeout", "tls", "server-pid", "server-gc-log"},
              with_kind);
          !s.ok()) {
        return s;
      }
      break;
    case TargetKind::kRemote:
      if (auto s = RefuseIgnored(vm, {"work-dir", "compress", "records-inline"},
                                 "with a remote target that is already running");
          !s.ok()) {
        return s;
      }
      break;
    case TargetKind::kStartedServer:
      if (auto s = RefuseIgnored(vm, {"tls", "server-pid", "server-gc-log"},
                                 "with the server reindex starts (plaintext, on loopback); a TLS server "
                                 "goes with --address");
          !s.ok()) {
        return s;
      }
      break;
    case TargetKind::kOpen:
      return InternalError("--target open was let through");
  }
  if (Given(vm, "server-gc-log") && remote.server_pid == 0) {
    return InvalidArgumentError("--server-gc-log goes with --server-pid (the server whose log it is)");
  }
  if (auto s = CheckRange("server-pid", remote.server_pid, 0, 1 << 22); !s.ok()) return s;
  if (auto s = CheckRange("upsert-timeout", remote.deadlines.upsert_timeout_seconds, 1, kDaySeconds);
      !s.ok()) {
    return s;
  }
  if (auto s = CheckRange("golive-timeout", remote.deadlines.golive_timeout_seconds, 0, kWeekSeconds);
      !s.ok()) {
    return s;
  }
  auto records = ParseRecordCompression(compression);
  if (!records.ok()) return records.status();
  local.compression = *records;
  if (auto s = CheckHostPort(remote.address, AddressUse::kDial); !s.ok()) return s.WithContext("--address");
  switch (target_kind) {
    case TargetKind::kEmbedded:
      spec = local;
      break;
    case TargetKind::kRemote:
      spec = remote;
      break;
    case TargetKind::kNull:
      spec = NullTargetSpec{};
      break;
    case TargetKind::kStartedServer: {
      StartedServerTargetSpec started;
      started.work_dir = local.work_dir;
      started.deadlines = remote.deadlines;
      started.compression = local.compression;
      started.records_inline = local.records_inline;
      spec = started;
      break;
    }
    case TargetKind::kOpen:
      return InternalError("--target open was let through");
  }
  return OkStatus();
}

po::options_description CopyGroup::Options() {
  po::options_description group("copy");
  group.add_options()("target-catalog", po::value(&copy.target_catalog),
                      "catalog to create (default <catalog>_<4 hex>)")(
      "collections", po::value(&collections), "comma-separated subset of collections")(
      "max-per-collection", po::value(&copy.max_per_collection)->default_value(0),
      "cap per collection, 0 = all")(
      "no-read-ahead", po::bool_switch(&no_read_ahead),
      "decode each entity just before its upsert, on the load's thread (default: "
      "up to 64 ahead on a second thread; source read is then the load's wait)")(
      "verify", po::value(&verify)->default_value("counts"),
      "after goLive: counts | content (counts, then every entity read back and compared by digest; untimed) "
      "| none (exit 0, said in the report)")("keep-target", po::bool_switch(&copy.keep_target),
                                             "keep the target catalog when the run fails")(
      "run", po::value(&copy.run_label)->default_value("run"), "run label");
  return group;
}

po::options_description CopyGroup::Hidden() {
  po::options_description hidden;
  hidden.add_options()("skip-verify", po::bool_switch(&skip_verify), "older spelling of --verify none");
  return hidden;
}

Status CopyGroup::Finish(const po::variables_map& vm) {
  if (skip_verify) {
    if (Given(vm, "verify")) return InvalidArgumentError("give --verify or --skip-verify, not both");
    verify = "none";
  }
  if (verify == "none") {
    copy.verify = VerifyMode::kNone;
  } else if (verify == "counts") {
    copy.verify = VerifyMode::kCounts;
  } else if (verify == "content") {
    copy.verify = VerifyMode::kContent;
  } else {
    return InvalidArgumentError("--verify must be counts, content or none, not '" + verify + "'");
  }
  if (auto s = CheckRange("max-per-collection", copy.max_per_collection, 0, INT64_MAX); !s.ok()) return s;
  copy.read_ahead = !no_read_ahead;
  if (auto s = CheckName(copy.run_label, "--run"); !s.ok()) return s;
  if (!copy.target_catalog.empty()) {
    if (auto s = CheckName(copy.target_catalog, "--target-catalog"); !s.ok()) return s;
  }
  copy.collections = collections | ranges::views::split(',') |
                     ranges::views::filter([](auto&& name) { return !ranges::empty(name); }) |
                     ranges::to<std::vector<std::string>>();
  return OkStatus();
}

po::options_description ReportGroup::Options() {
  po::options_description group("report");
  group.add_options()("report-json", po::value(&report.report_json), "write the report as JSON here")(
      "per-entity-csv", po::value(&report.per_entity_csv), "one CSV row per upsert")(
      "html", po::value(&report.html),
      "write the run as one self-contained page (time per collection, latency CDFs, throughput and server "
      "RSS over time, the fingerprint)")("hold-open-seconds",
                                         po::value(&report.hold_open_seconds)->default_value(0),
                                         "stay alive after the report")(
      "progress-interval", po::value(&report.progress_interval_seconds)->default_value(10, "10"),
      "seconds between progress lines when stderr is not a terminal (a terminal gets one live line)")(
      "quiet", po::bool_switch(&report.quiet), "no progress, only the report");
  if (!with_history) return group;
  group.add_options()(
      "history", po::value(&report.history)->implicit_value(DefaultHistoryLocation()),
      "--history[=FILE|postgresql://...]: record the run (with --runs, each measured run) in a history "
      "(warmup history; docs/history.md); alone, the default store ($WARMUP_HISTORY, else under the user's "
      "data directory)");
  return group;
}

Status ReportGroup::Finish() {
  if (auto s = CheckRange("hold-open-seconds", report.hold_open_seconds, 0, kDaySeconds); !s.ok()) return s;
  if (!(report.progress_interval_seconds >= 0.1 && report.progress_interval_seconds <= kDaySeconds)) {
    return InvalidArgumentError("--progress-interval must be from 0.1 to 86400 seconds, not " +
                                std::to_string(report.progress_interval_seconds));
  }
  return OkStatus();
}

po::options_description RepeatGroup::Options() {
  po::options_description group("repeated runs");
  group.add_options()("runs", po::value(&repeat.runs)->default_value(repeat.runs),
                      "measured runs of this configuration, each on a fresh target; with --runs or "
                      "--warmup-runs every run's report goes to --out and the runs are summarized (median, "
                      "min-max, spread per metric)")(
      "warmup-runs", po::value(&repeat.warmup_runs)->default_value(repeat.warmup_runs),
      "runs made first, reported in --out and left out of the summary; with --warmup-until-stable the "
      "most of them (default 20)")(
      "warmup-until-stable", po::value(&repeat.warmup_until_stable)->default_value(0),
      "K: make warm-up runs until --warmup-metric shows no trend over the last K of them (Mann-Kendall at "
      "5 %, K from 5), for a server that stays up between runs (--target remote)")(
      "warmup-metric", po::value(&repeat.warmup_metric)->default_value(repeat.warmup_metric),
      "the metric --warmup-until-stable watches")(
      "out", po::value(&repeat.out_dir)->default_value(repeat.out_dir),
      "with --runs: the directory for every run's reports (LABEL.json, LABEL.txt) and the summary "
      "(summary.json, summary.txt); absent or empty");
  return group;
}

Status RepeatGroup::Finish(const po::variables_map& vm, const LoadCommand& cmd) {
  repeat.repeated = Given(vm, "runs") || Given(vm, "warmup-runs") || Given(vm, "warmup-until-stable");
  if (!repeat.repeated) {
    return RefuseIgnored(vm, {"out", "warmup-metric"},
                         "without --runs (it holds the reports of repeated runs)");
  }
  if (auto s = CheckRange("runs", repeat.runs, 1, 1000); !s.ok()) return s;
  if (auto s = CheckRange("warmup-runs", repeat.warmup_runs, 0, 100); !s.ok()) return s;
  if (Given(vm, "warmup-until-stable")) {
    // Mann-Kendall cannot show a trend in 4 runs or fewer (its smallest p is 2/24).
    if (auto s = CheckRange("warmup-until-stable", repeat.warmup_until_stable, 5, 20); !s.ok()) return s;
    if (!Given(vm, "warmup-runs")) repeat.warmup_runs = RepeatOptions::kMostRunsUntilStable;
    if (repeat.warmup_runs < repeat.warmup_until_stable) {
      return InvalidArgumentError("--warmup-runs " + std::to_string(repeat.warmup_runs) +
                                  " is the most warm-up runs; --warmup-until-stable " +
                                  std::to_string(repeat.warmup_until_stable) + " needs at least that many");
    }
    if (KindOf(cmd.target) == TargetKind::kStartedServer) {
      return InvalidArgumentError(
          "--warmup-until-stable warms up one server over runs, but each run of a started server starts a "
          "fresh "
          "one; start the server yourself and give --target remote --address (and --server-pid for its "
          "figures)");
    }
  } else if (Given(vm, "warmup-metric")) {
    return InvalidArgumentError(
        "--warmup-metric is what --warmup-until-stable watches; give both or neither");
  }
  if (auto s = CheckRunMetric("--warmup-metric", repeat.warmup_metric); !s.ok()) return s;
  if (repeat.out_dir.empty()) return InvalidArgumentError("--out needs a value, not an empty one");
  if (auto s = RefuseIgnored(vm, {"report-json", "per-entity-csv", "html", "hold-open-seconds"},
                             "with --runs: every run's report goes to --out DIR as LABEL.json and LABEL.txt");
      !s.ok()) {
    return s;
  }
  if (KindOf(cmd.target) == TargetKind::kRemote && !cmd.copy.target_catalog.empty()) {
    return InvalidArgumentError(
        "--target-catalog with --runs against a running server: every run creates a catalog of its own, and "
        "the second would find the first's; leave --target-catalog out");
  }
  return OkStatus();
}

po::options_description StartedServerGroup::Options() {
  po::options_description group("started server");
  group.add_options()("server-binary", po::value(&server.binary),
                      "the warmup binary whose serve to start (default: this one), e.g. another build")(
      "server-start-timeout", po::value(&server.start_timeout_seconds)->default_value(60),
      "seconds the started server may take to be ready")(
      "server-stop-grace", po::value(&server.stop_grace_seconds)->default_value(10),
      "seconds the server may take to exit after SIGTERM before it is killed")(
      "server-command", po::value(&server.command),
      "start this command instead of a warmup serve (evitaDB's JVM): /bin/sh -c with {port} (picked here), "
      "{data}, {run}, {gclog}, {xmx} replaced; ready when IsReady/ServerStatus say so (docs/evitadb.md)")(
      "server-xmx", po::value(&server.xmx), "the server command's {xmx}, e.g. 8g")(
      "server-args", po::value(&args),
      "more flags for the started serve, one string split at spaces, e.g. \"--inject-upsert-delay-us 50\" "
      "(a single flag as --server-args=--compress)");
  return group;
}

Status StartedServerGroup::Finish(const po::variables_map& vm) {
  const TargetKind kind = KindOf(target);
  static constexpr std::initializer_list<const char*> kFlags = {"server-binary",     "server-start-timeout",
                                                                "server-stop-grace", "server-args",
                                                                "server-command",    "server-xmx"};
  if (kind == TargetKind::kEmbedded) return RefuseIgnored(vm, kFlags, "with --target embedded");
  if (kind == TargetKind::kRemote)
    return RefuseIgnored(vm, kFlags, "with --address: reindex starts no server");
  if (auto s = CheckRange("server-start-timeout", server.start_timeout_seconds, 1, 3600); !s.ok()) return s;
  if (auto s = CheckRange("server-stop-grace", server.stop_grace_seconds, 0, 3600); !s.ok()) return s;
  server.extra_args = SplitAtSpaces(args);
  if (!server.command.empty()) {
    if (auto s = RefuseIgnored(vm, {"server-binary", "server-args", "compress", "records-inline"},
                               "with --server-command: the command says how its server runs");
        !s.ok()) {
      return s;
    }
    if (auto s = RequireXmx(server.command, server.xmx, "--server-command",
                            "--server-xmx, or SERVER_XMX to the wrappers");
        !s.ok()) {
      return s;
    }
  } else if (auto s = RefuseIgnored(vm, {"server-xmx"}, "without --server-command"); !s.ok()) {
    return s;
  }
  auto* started = std::get_if<StartedServerTargetSpec>(&target);
  if (started == nullptr) return InternalError("reindex's started server flags, and no started server");
  started->server = server;
  return OkStatus();
}

}  // namespace warmup::cli
