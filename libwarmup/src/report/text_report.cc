#include <algorithm>
#include <cstdio>
#include <functional>
#include <range/v3/algorithm/stable_sort.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/transform.hpp>

#include "report/format.h"
#include "warmup/catalog_source.h"
#include "warmup/record_storage.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

using report::Format;

// 386369 -> "386,369"
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return (n < 0 ? "-" : "") + digits;
}

std::string Distribution(const LatencyStats& s) {
  std::string out = Format("mean %.1f  median %.1f  p90 %.1f  p95 %.1f  p99 %.1f", s.mean_us, s.median_us,
                           s.p90_us, s.p95_us, s.p99_us);
  if (s.p999_us) out += Format("  p99.9 %.1f", *s.p999_us);
  return out + Format("  max %.1f us", s.max_us);
}

// `text` broken into lines of at most `width` columns, the later ones
// starting with `indent`.
std::string Wrapped(const std::string& text, size_t width, const std::string& indent) {
  std::string out;
  size_t line = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line > 0 && line + 1 + word.size() > width) {
      out += "\n" + indent;
      line = indent.size();
    } else if (line > 0) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string DescribeServer(const ServerIdentity& server) {
  std::string out =
      server.version.empty() ? std::string("a server that did not name its version") : server.named_version();
  out += " at " + server.address;
  if (!server.instance_id.empty()) out += ", instance " + server.instance_id;
  if (!server.started_at.empty()) out += ", started " + server.started_at;
  out += ", readiness " +
         (server.readiness.empty() ? std::string("not reported (no management service)") : server.readiness);
  return out;
}

std::vector<std::string> RunCaveats(const RunResult& r) {
  std::vector<std::string> caveats = {
      "upsert figures are service times of a closed loop (one upsert at a time, each waiting for the last), "
      "not latencies under an open-loop arrival schedule."};
  if (r.server_identity && !r.server_identity->readiness_probed) {
    caveats.push_back(
        "the server's readiness was not probed: it answered IsReady but " +
        (r.server_identity->readiness.empty() ? std::string("has no management service")
                                              : "its ServerStatus says " + r.server_identity->readiness) +
        " (evitaDB without readiness probes, e.g. built without its Observability module); the load began "
        "when gRPC answered, whatever else of the server was still starting.");
  }
  // The kind RunLoad or the target itself recorded (CatalogTarget::Kind),
  // never read out of the target's description.
  auto is = [&](const char* kind) { return r.config.target_kind == kind; };
  if (is("remote")) {
    caveats.push_back(
        "remote: an upsert's time is end-to-end ingestion latency (conversion, serialization, round trip, "
        "server), not write-path latency; for cheap collections the wire dominates.");
  }
  if (is("embedded")) {
    caveats.push_back(
        "embedded engine: the index work of evitaDB's WARM_UP upsert, but not all of it: no histograms or "
        "conditional facets (facetedPartially); parts are protobuf, not Kryo; index sizes are the bytes "
        "goLive "
        "wrote, not heap bytes (docs/engine.md lists every structure).");
    int64_t conditional = 0;
    std::string where;
    for (const auto& c : r.index_statistics) {
      if (c.conditional_facets == 0) continue;
      conditional += c.conditional_facets;
      where += (where.empty() ? "" : ", ") + c.entity_type;
    }
    if (conditional > 0) {
      caveats.push_back("conditional facets: " + Grouped(conditional) + " facet postings (" + where +
                        ") belong to references whose facetedPartially expression the engine does not "
                        "evaluate; it indexed every such reference as a facet, evitaDB only those the "
                        "expression admits, so up to that many are work evitaDB would not do.");
    }
  }
  if (const auto* storage = std::get_if<RecordStorage>(&r.config.records);
      storage != nullptr && storage->writes == RecordWrites::kBackground) {
    caveats.push_back(
        "records written in the background: a second thread split, compressed and appended each new "
        "entity's storage records while the upserts went on, where evitaDB's WARM_UP upsert writes its "
        "own; upsert times leave that work out, the load's wall-clock and goLive (which waits for what "
        "is queued) keep it. A run with its records written inline measures each upsert with it.");
  }
  if (is("null"))
    caveats.push_back("null target: nothing is stored; the figures measure the harness itself.");
  if (is("remote") || is("embedded")) {
    caveats.push_back(
        "primary keys: every entity keeps its source key, so the published catalog's entity schemas have "
        "key generation off (an upsert with an explicit key and MUST_NOT_EXIST requires it), whatever the "
        "source's schemas say.");
  }
  if (r.first_upsert) {
    caveats.push_back(
        Format("the run's first upsert (%s/%d, %.1f us) paid for cold caches and set-up; it is in "
               "the figures, and a collection's median of a few entities is mostly it.",
               r.first_upsert->entity_type.c_str(), r.first_upsert->primary_key, r.first_upsert->us));
  }
  const auto state = r.config.dataset_provenance.find("source.catalog_state");
  if (state != r.config.dataset_provenance.end() && state->second != "ALIVE") {
    caveats.push_back("the source catalog was " + state->second +
                      " when it was read, not ALIVE: " + WhatNotAliveHolds(state->second) + ".");
  }
  if (r.abort_reason == AbortReason::kInterrupted) {
    caveats.push_back(
        "interrupted: the figures are of the part that ran; collections not reached are listed "
        "with what was expected of them.");
  }
  return caveats;
}

// What the exit status means for this run, saying exactly what was checked.
std::string RunVerdict(const RunResult& r) {
  const int exit_code = r.ExitCode();
  if (exit_code == 2) return "FIGURES STAND, COMPLETENESS UNPROVEN: counts unknown";
  if (r.abort_reason == AbortReason::kInterrupted) {
    return "INTERRUPTED: a partial run; do not quote these figures";
  }
  if (exit_code != 0 && r.abort_error.empty() && r.golive == GoLiveOutcome::kCompleted &&
      !r.output_error.empty() &&
      (r.verification == Verification::kVerified || r.verification == Verification::kSkipped ||
       r.verification == Verification::kNotApplicable)) {
    return "FAILED: the run was measured, but its report could not be written (" + r.output_error + ")";
  }
  if (exit_code != 0) return "FAILED: do not quote these figures";
  if (r.verification == Verification::kSkipped)
    return "OK: the figures stand; the counts were not checked (skip verify)";
  if (r.verification == Verification::kNotApplicable) {
    return "OK: the harness's figures stand; the target stored nothing, so nothing was verified";
  }
  const bool capped = std::any_of(r.collections.begin(), r.collections.end(), [](const CollectionResult& c) {
    return c.expected_count < c.source_count;
  });
  const std::string content = r.verify_mode == VerifyMode::kContent
                                  ? Format(" and every entity's content (%lld entities compared)",
                                           static_cast<long long>(r.content_compared))
                                  : "";
  if (!capped && !r.collection_subset) {
    return "OK: the figures stand; every collection's count" + content +
           (content.empty() ? " matches" : " match") + " the source";
  }
  std::string what = "OK: the figures stand; the counts" + content + " match what was asked (";
  if (r.collection_subset) what += "a subset of the collections";
  if (r.collection_subset && capped) what += ", ";
  if (capped) what += "capped per collection";
  return what + "), not the whole source";
}

std::string TargetDropNote(const RunResult& r) {
  // A catalog that went ALIVE holds every entity the load sent, even when
  // verification then found it differs: it is not partial.
  const std::string which =
      r.golive == GoLiveOutcome::kCompleted ? "target catalog" : "partial target catalog";
  switch (r.target_drop) {
    case TargetDrop::kDropped:
      return "; the " + which + " was dropped";
    case TargetDrop::kKept:
      return "; the " + which + " was kept (keep target)";
    case TargetDrop::kFailed:
      return "; the " + which + " could NOT be dropped (" + r.target_drop_error + ")";
    case TargetDrop::kNotNeeded:
      break;
  }
  return "";
}

namespace {

// "a b 'c d'": words as a shell would take them back.
std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    const bool plain = !w.empty() && w.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_-./=:,+@%") == std::string::npos;
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (const char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

// The configuration a comparison must match: target kind, storage, the copy's settings.
std::string DescribeConfig(const RunResult& r) {
  const RunConfig& c = r.config;
  const auto* storage = std::get_if<RecordStorage>(&c.records);
  const std::string writes = RecordWritesWord(c.records);
  // Why the storage is not known, when it is not.
  const char* unknown = !c.server_command.empty()   ? "unknown (the server command sets its own storage)"
                        : c.target_kind == "remote" ? "unknown (a server warmup did not start)"
                                                    : "unknown (the target does not say)";
  std::string out = "target kind " + (c.target_kind.empty() ? std::string("not recorded") : c.target_kind) +
                    ", records compressed: " +
                    (std::holds_alternative<RecordsUnknown>(c.records) ? std::string(unknown)
                                                                       : CompressionWord(c.records)) +
                    (writes.empty() ? std::string() : ", record writes " + writes) +
                    (storage != nullptr && WrittenAsEvitaDb(*storage) ? " (as evitaDB writes them)" : "") +
                    ", verify " + VerifyModeName(r.verify_mode) +
                    (c.source_read_ahead ? ", source read ahead" : ", source read inline");
  if (c.max_per_collection > 0)
    out += Format(", at most %lld per collection", static_cast<long long>(c.max_per_collection));
  if (!c.collections.empty()) out += ", collections " + JoinWords(c.collections);
  if (auto scale = c.dataset_provenance.find("generator.scale"); scale != c.dataset_provenance.end()) {
    out += ", dataset scale " + scale->second;
  }
  if (!c.server_command.empty()) out += ", server command " + c.server_command;
  if (!c.server_binary.empty()) out += ", server " + c.server_binary;
  if (!c.server_args.empty()) out += " (serve " + JoinWords(c.server_args) + ")";
  if (!c.server_xmx.empty()) out += ", heap " + c.server_xmx;
  return out;
}

// What ran, where, on what: the run, source, target, configuration, storage, command, build and host.
std::string HeaderSection(const RunResult& r) {
  std::string out;
  const auto& env = r.environment;
  out += "warmup run " + r.run_label + " (started " + r.started_at + ")\n";
  out += "  source   " + r.source + ", fingerprint " + r.dataset_fingerprint + "\n";
  out += "  target   " + r.target + ", catalog " + r.target_catalog + "\n";
  if (const auto& server = r.server_identity) out += "  server   " + DescribeServer(*server) + "\n";
  out += "  config   " + DescribeConfig(r) + "\n";
  if (const auto& storage = r.config.storage) {
    out +=
        "  storage  " + storage->path + ": " + (storage->filesystem.empty() ? "?" : storage->filesystem) +
        " on " + storage->device + (storage->mount_options.empty() ? "" : ", " + storage->mount_options) +
        (storage->free_bytes < 0 ? std::string()
                                 : Format(", %.1f GB free", static_cast<double>(storage->free_bytes) / 1e9)) +
        "\n";
  }
  if (!r.config.command_line.empty()) out += "  command  " + JoinWords(r.config.command_line) + "\n";
  out += "  build    warmup " + (env.build_details.empty() ? env.build : env.build_details) + "\n";
  out += Format("  host     %s: %s, %d cores, memory limit %.1f GiB, kernel %s\n", env.hostname.c_str(),
                env.cpu_model.c_str(), env.cores, static_cast<double>(env.memory_limit_bytes) / (1 << 30),
                env.kernel.c_str());
  auto load = [](const HostLoad& l) {
    return l.load_average_1m < 0 ? std::string("?") : Format("%.2f", l.load_average_1m);
  };
  const auto steal = env.steal_share();
  out += "  load     1-min load average " + load(env.at_start) + " at the start, " + load(env.at_end) +
         " at the end; CPU steal " + (steal ? Format("%.1f %%", 100 * *steal) : std::string("unknown")) +
         " between; cgroup cpu.max " + (env.cpu_limit.empty() ? std::string("none") : env.cpu_limit) + "\n";
  if (r.source_cache) {
    const SourceCache& c = *r.source_cache;
    out += Format(
        "  source cache %.1f of %.1f MB (%.0f %%) in the page cache before the run, %lld files%s\n",
        static_cast<double>(c.resident_bytes) / 1e6, static_cast<double>(c.bytes) / 1e6,
        c.bytes > 0 ? 100.0 * static_cast<double>(c.resident_bytes) / static_cast<double>(c.bytes) : 0.0,
        static_cast<long long>(c.files),
        c.action == "none" ? "" : (" (" + c.action + " on purpose)").c_str());
  }
  return out;
}

// Per collection, slowest first: count, wall time, read time and the upsert distribution.
std::string CollectionSection(const RunResult& r) {
  std::string out;
  auto by_wall = r.collections | ranges::views::transform([](const CollectionResult& c) { return &c; }) |
                 ranges::to<std::vector<const CollectionResult*>>();
  ranges::stable_sort(by_wall, std::greater<>(), &CollectionResult::wall_seconds);
  out += Format("\n%-26s %6s %9s %10s %8s %9s %9s %9s %9s %10s %6s\n", "collection (slowest first)", "count",
                "wall s", "us/entity", "read s", "mean us", "med us", "p95 us", "p99 us", "max us", "%wall");
  for (const auto* c : by_wall) {
    if (!c->reached) {
      out += Format("%-26s %6s   not reached: the load stopped before it (%s expected)\n",
                    c->entity_type.c_str(), "-", Grouped(c->expected_count).c_str());
      continue;
    }
    const double per_entity = c->copied > 0 ? c->wall_seconds * 1e6 / static_cast<double>(c->copied) : 0;
    const double share = r.load_wall_seconds > 0 ? 100 * c->wall_seconds / r.load_wall_seconds : 0;
    out += Format("%-26s %6s %9.3f %10.2f %8.3f %9.1f %9.1f %9.1f %9.1f %10.1f %5.1f%%\n",
                  c->entity_type.c_str(), Grouped(c->copied).c_str(), c->wall_seconds, per_entity,
                  c->read_seconds, c->upsert.mean_us, c->upsert.median_us, c->upsert.p95_us, c->upsert.p99_us,
                  c->upsert.max_us, share);
  }
  return out;
}

// Where the load's wall-clock went, and goLive.
std::string TimingSection(const RunResult& r) {
  std::string out;
  const double wall = r.load_wall_seconds;
  const auto pct = [wall](double s) { return wall > 0 ? 100 * s / wall : 0.0; };
  out += "\n";
  out += Format("  load wall-clock      %10.3f s   %s entities, %.0f entities/s\n", wall,
                Grouped(r.copied()).c_str(), wall > 0 ? static_cast<double>(r.copied()) / wall : 0.0);
  out += Format("  source read          %10.3f s   %5.1f %% of wall (reported so it can be subtracted)\n",
                r.source_read_seconds, pct(r.source_read_seconds));
  out += Format("  upsert (pure)        %10.3f s   %5.1f %% of wall, %s upserts\n", r.upsert.total_seconds,
                pct(r.upsert.total_seconds), Grouped(r.upsert.count).c_str());
  out += "                       " + Distribution(r.upsert) + "\n";
  if (r.first_upsert) {
    out += Format("  first upsert         %10.1f us  %s/%d, the run's first (cold; in the figures above)\n",
                  r.first_upsert->us, r.first_upsert->entity_type.c_str(), r.first_upsert->primary_key);
  }
  if (r.server) {
    out += Format("    of which server    %10.3f s   ", r.server->total_seconds) + Distribution(*r.server) +
           "\n";
    out += Format("    of which wire      %10.3f s   (upsert minus server time)\n",
                  r.upsert.total_seconds - r.server->total_seconds);
  }
  out += Format("  loop overhead        %10.3f s   %5.1f %% of wall\n", r.loop_overhead_seconds,
                pct(r.loop_overhead_seconds));
  switch (r.golive) {
    case GoLiveOutcome::kCompleted:
      out += Format("  goLive -> ALIVE      %10.3f s\n", r.golive_seconds);
      out += Format("  TOTAL                %10.3f s   load + goLive\n", *r.total_seconds());
      break;
    case GoLiveOutcome::kFailed:
      out += Format(
          "  goLive -> ALIVE      %10.3f s   *** CLIENT-SIDE FAILURE *** (time to failure, not a "
          "transition time)\n",
          r.golive_seconds);
      out += "                       " + r.golive_error + "\n";
      out += "  TOTAL                not stated: goLive did not complete\n";
      break;
    case GoLiveOutcome::kNotAttempted:
      out += "  goLive -> ALIVE      not attempted\n";
      break;
  }
  if (r.target_data) {
    const double growth =
        static_cast<double>(r.target_data->bytes_at_golive_end - r.target_data->bytes_at_golive_start);
    out += Format("  target data          %10.1f MB when the load ended, %+.1f MB in goLive",
                  static_cast<double>(r.target_data->bytes_at_golive_start) / 1e6, growth / 1e6);
    if (r.golive == GoLiveOutcome::kCompleted && r.golive_seconds > 0 && growth > 0) {
      out += Format(" (%.1f MB/s)", growth / 1e6 / r.golive_seconds);
    }
    out += "\n";
  }
  return out;
}

// The loader's and the server process's CPU, memory, data and GC.
std::string ProcessSection(const RunResult& r) {
  std::string out;
  out += Format("  loader               user %.2f s, sys %.2f s, peak RSS %.1f MB\n", r.loader.user_seconds,
                r.loader.system_seconds, static_cast<double>(r.loader.peak_rss_bytes) / 1e6);
  if (const auto& source = r.source_server_process) {
    out += Format(
        "  source server        user %.2f s, sys %.2f s, peak RSS %.1f MB (the reader, not the target)\n",
        source->usage.user_seconds, source->usage.system_seconds,
        static_cast<double>(source->usage.peak_rss_bytes) / 1e6);
    if (source->gc) {
      out += Format("  source server GC     %lld young, %lld full, %lld other pauses; %.3f s paused in all\n",
                    static_cast<long long>(source->gc->young_collections),
                    static_cast<long long>(source->gc->full_collections),
                    static_cast<long long>(source->gc->other_pauses), source->gc->pause_seconds);
    }
  }
  if (const auto& server = r.server_process) {
    const ProcessUsage& u = server->usage;
    const std::string golive_peak =
        r.golive == GoLiveOutcome::kNotAttempted
            ? std::string("n/a, no goLive")
            : Format("%.1f MB", static_cast<double>(server->peak_rss_golive_bytes) / 1e6);
    out += Format(
        "  server               user %.2f s, sys %.2f s, peak RSS %.1f MB (sampled: load %.1f MB, goLive "
        "%s)\n",
        u.user_seconds, u.system_seconds, static_cast<double>(u.peak_rss_bytes) / 1e6,
        static_cast<double>(server->peak_rss_load_bytes) / 1e6, golive_peak.c_str());
    if (server->usage_sampled) {
      out +=
          "                       (from /proc samples of the command's process group; faults and context "
          "switches not known)\n";
    } else {
      out +=
          Format("                       page faults %lld minor / %lld major, context switches %lld / %lld\n",
                 static_cast<long long>(u.minor_faults), static_cast<long long>(u.major_faults),
                 static_cast<long long>(u.voluntary_context_switches),
                 static_cast<long long>(u.involuntary_context_switches));
    }
    out += Format("  server data: %.1f MB in %s\n", static_cast<double>(server->data_bytes) / 1e6,
                  server->data_dir.c_str());
    out += "  server process       " + server->header + "\n";
    if (!server->build.empty()) out += "  server build         " + server->build + "\n";
    if (server->gc) {
      out += Format(
          "  server GC            %lld young, %lld full, %lld other pauses; %.3f s paused in all (%s)\n",
          static_cast<long long>(server->gc->young_collections),
          static_cast<long long>(server->gc->full_collections),
          static_cast<long long>(server->gc->other_pauses), server->gc->pause_seconds,
          server->gc->log.c_str());
    } else if (!server->gc_unavailable.empty()) {
      out += "  server GC            unknown: " + server->gc_unavailable + "\n";
    }
    const std::string stop = server->attached ? "" : Format(", %.2f s after SIGTERM", server->stop_seconds);
    out += Format("                       %s%s; %zu samples of RSS and CPU\n", server->ended.c_str(),
                  stop.c_str(), server->samples.size());
  }
  return out;
}

// The indexes the target built, by evitaDB's index kinds; empty when not known.
std::string IndexSection(const RunResult& r) {
  std::string out;
  if (!r.index_statistics.empty()) {
    // evitaDB's index kinds, so the counts can be set beside its memory-footprint figures.
    out += Format("\n%-24s %8s %8s %9s %9s %9s %9s %13s %9s\n", "indexes at goLive", "total", "GLOBAL",
                  "REF_ENT", "REF_GRP", "REF_TYPE", "GRP_TYPE", "entries", "MB");
    for (const auto& c : r.index_statistics) {
      int64_t by_kind[kIndexKinds] = {};
      int64_t entries = 0;
      int64_t bytes = 0;
      for (const auto& k : c.kinds) {
        by_kind[static_cast<int>(k.kind)] = k.indexes;
        entries += k.entries;
        bytes += k.bytes;
      }
      out += Format("%-24s %8s %8s %9s %9s %9s %9s %13s %9.1f\n", c.entity_type.c_str(),
                    Grouped(c.total_indexes()).c_str(), Grouped(by_kind[0]).c_str(),
                    Grouped(by_kind[1]).c_str(), Grouped(by_kind[2]).c_str(), Grouped(by_kind[3]).c_str(),
                    Grouped(by_kind[4]).c_str(), Grouped(entries).c_str(), static_cast<double>(bytes) / 1e6);
    }
  }
  return out;
}

// What the figures do not say, and why the run stopped when it did.
std::string CaveatSection(const RunResult& r) {
  std::string out;
  out += "\ncaveats\n";
  for (const std::string& caveat : RunCaveats(r)) out += "  - " + Wrapped(caveat, 96, "    ") + "\n";
  if (!r.abort_error.empty()) {
    const char* why = r.abort_reason == AbortReason::kEntityRejected ? "an entity was rejected"
                      : r.abort_reason == AbortReason::kTargetFailed ? "the target failed, not the entity"
                      : r.abort_reason == AbortReason::kSourceFailed ? "the source failed"
                      : r.abort_reason == AbortReason::kInterrupted  ? "interrupted"
                                                                     : "an output could not be written";
    out += "\nABORTED (" + std::string(why) + "): " + r.abort_error + "\n";
  }
  return out;
}

// Whether the target holds what the source did, per collection.
std::string VerificationSection(const RunResult& r) {
  std::string out;
  out += "\nverification: " + std::string(VerificationVerdict(r.verification));
  const bool checked = r.verification != Verification::kSkipped &&
                       r.verification != Verification::kNotReached &&
                       r.verification != Verification::kNotApplicable;
  if (checked) {
    out += Format(" (%s, %.3f s, untimed: after the measurement)", VerifyModeName(r.verify_mode),
                  r.verification_seconds);
  }
  out += "\n";
  if (checked) {
    out += Format("  %-22s %12s %12s %12s\n", "collection", "source", "expected", "target");
    for (const auto& c : r.collections) {
      const bool differs = c.target_count && *c.target_count != c.expected_count;
      out += Format("  %-22s %12s %12s %12s%s\n", c.entity_type.c_str(), Grouped(c.source_count).c_str(),
                    Grouped(c.expected_count).c_str(),
                    c.target_count ? Grouped(*c.target_count).c_str() : "unknown",
                    differs ? "   *** DIFFERS ***" : "");
    }
    if (r.verify_mode == VerifyMode::kContent && r.verification != Verification::kMismatch) {
      out +=
          Format("  content: %lld entities compared by digest, %lld differences\n",
                 static_cast<long long>(r.content_compared), static_cast<long long>(r.content_differences));
      for (const auto& difference : r.first_differences) out += "    " + difference + "\n";
      if (r.content_differences > static_cast<int64_t>(r.first_differences.size())) {
        out += Format(
            "    ... and %lld more\n",
            static_cast<long long>(r.content_differences - static_cast<int64_t>(r.first_differences.size())));
      }
    }
    if (!r.verification_error.empty()) out += "  " + r.verification_error + "\n";
  }
  return out;
}

// Notes, an output that failed, and the verdict with its exit status.
std::string VerdictSection(const RunResult& r) {
  std::string out;
  for (const std::string& note : r.notes) out += "\nnote: " + note + "\n";
  if (!r.output_error.empty()) out += "\nOUTPUT FAILED: " + r.output_error + "\n";
  const int exit_code = r.ExitCode();
  out += Format("\nverdict: %s (exit %d)%s\n", RunVerdict(r).c_str(), exit_code, TargetDropNote(r).c_str());
  out += "RUN_STATUS=MEASUREMENT-DONE-" + r.run_label + "\n";
  return out;
}

}  // namespace

// Sections in the order a reader needs them, as benchmark tools print a
// header before the runs and a summary after.
std::string RenderTextReport(const RunResult& r) {
  return HeaderSection(r) + CollectionSection(r) + TimingSection(r) + ProcessSection(r) + IndexSection(r) +
         CaveatSection(r) + VerificationSection(r) + VerdictSection(r);
}

}  // namespace warmup
