// warmup serve's flags.
#include <algorithm>

#include "common/option_parsing.h"
#include "common/options.h"

namespace warmup::cli {

StatusOr<ServeCommand> ParseServe(const std::vector<std::string>& args) {
  ServeCommand cmd;
  std::vector<std::string> faults;
  std::string compression;
  bool records_inline = false;
  ServerOptions& server = cmd.server;
  server.tls.names = {"--tls-cert", "--tls-key", "--client-ca"};  // what TLS errors call them
  po::options_description o("options");
  o.add_options()("help", "show this help")("data-dir", po::value(&server.data_dir)->required(),
                                            "the engine's data directory")(
      "listen", po::value(&server.listen)->default_value("127.0.0.1:5555"),
      "host:port; port 0 picks a free one")(
      "allow-remote-clients", po::bool_switch(&cmd.allow_remote_clients),
      "let --listen be an address other machines reach (no authentication: anyone can drop catalogs)")(
      "compress", po::value(&compression)->default_value("none"),
      (std::string("records (storage.compress): ") + kRecordCompressHelp).c_str())(
      "records-inline", po::bool_switch(&records_inline), kRecordsInlineHelp)(
      "reset-data", po::bool_switch(&cmd.reset_data),
      "clear the data directory first of the catalogs warmup made there (only a marker-owned one)")(
      "session-idle-seconds",
      po::value(&server.session_idle_seconds)->default_value(server.session_idle_seconds),
      "close sessions idle this long, seconds (evitaDB's closeSessionsAfterSecondsOfInactivity, 60 as it "
      "ships; 0 = never)")(
      "orphaned-session-grace-seconds",
      po::value(&server.orphaned_session_grace_seconds)->default_value(server.orphaned_session_grace_seconds),
      "close a session this long after its client's connection is gone (a killed loader); 0 = never")(
      "upsert-delay-ms", po::value(&server.upsert_delay_ms)->default_value(0),
      "testing aid: wait this long before each upsert")(
      "golive-delay-ms", po::value(&server.golive_delay_ms)->default_value(0),
      "testing aid: wait this long before each goLive starts")(
      "inject-upsert-delay-us", po::value(&server.inject_upsert_delay_us)->default_value(0),
      "simulate a slower build: every upsert spends this many more microseconds (busy) inside the "
      "measured server time, to check that a comparison finds a known change")(
      "tls-cert", po::value(&server.tls.cert_file), "serve gRPC over TLS with this certificate chain (PEM)")(
      "tls-key", po::value(&server.tls.key_file), "... and its private key (PEM)")(
      "client-ca", po::value(&server.tls.client_ca_file),
      "mTLS: clients must present a certificate this CA (PEM) signed")(
      "system-listen", po::value(&server.system_listen),
      "host:port of a plain-HTTP endpoint serving /system/server.crt, as evitaDB's system API does")(
      "ready-fd", po::value(&cmd.ready_fd)->default_value(-1),
      "once listening, write {\"pid\": P, \"port\": N, \"system_port\": S (0 = none), \"build\": B} to this "
      "file "
      "descriptor and close it")(
      "inject-fault", po::value(&faults)->composing(),
      "testing aid: METHOD[@N] fails every call of the RPC METHOD after its first N (default 0) with "
      "UNAVAILABLE; METHOD[@N]:crash ends the server by SIGKILL at that call instead (a server dying "
      "mid-read); repeatable");
  std::string profiler_kind;
  o.add(ProfilerGroup(&profiler_kind, &cmd.profiler, true));
  auto vm = Parse(args, o, {},
                  "usage: warmup serve --data-dir DIR [--listen HOST:PORT] [--compress zstd] [--reset-data]",
                  &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  auto records = ParseRecordCompression(compression);
  if (!records.ok()) return records.status();
  server.engine.compression = *records;
  server.engine.background_records = !records_inline;
  if (auto s = FinishProfiler(profiler_kind, &cmd.profiler); !s.ok()) return s;
  if (auto s = CheckHostPort(server.listen, AddressUse::kListen); !s.ok()) return s.WithContext("--listen");
  if (!IsLoopback(server.listen) && !cmd.allow_remote_clients) {
    return InvalidArgumentError("--listen " + server.listen +
                                " is reachable from other machines, and the server has no authentication; "
                                "add --allow-remote-clients if that is meant");
  }
  for (const std::string& given : faults) {
    const std::string crash_suffix = ":crash";
    const bool crash = given.ends_with(crash_suffix);
    const std::string fault = crash ? given.substr(0, given.size() - crash_suffix.size()) : given;
    const size_t at = fault.find('@');
    ServerOptions::InjectedFault parsed{fault.substr(0, at), 0, crash};
    if (at != std::string::npos) {
      const std::string count = fault.substr(at + 1);
      if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos || count.size() > 12) {
        return InvalidArgumentError(
            "--inject-fault must look like METHOD, METHOD@N or METHOD@N:crash, not '" + given + "'");
      }
      parsed.after_calls = std::stoll(count);
    }
    const auto& known = InjectableMethods();
    if (std::find(known.begin(), known.end(), parsed.method) == known.end()) {
      std::string list;
      for (const auto& m : known) list += (list.empty() ? "" : ", ") + m;
      return InvalidArgumentError("--inject-fault: no RPC '" + parsed.method + "' to fail (known: " + list +
                                  ")");
    }
    server.faults.push_back(parsed);
  }
  if (auto s = CheckServerTls(server.tls); !s.ok()) return s;
  if (!server.system_listen.empty()) {
    if (server.tls.cert_file.empty()) {
      return InvalidArgumentError("--system-listen serves the server's certificate: it needs --tls-cert");
    }
    if (auto s = CheckHostPort(server.system_listen, AddressUse::kListen); !s.ok()) {
      return s.WithContext("--system-listen");
    }
    if (!IsLoopback(server.system_listen) && !cmd.allow_remote_clients) {
      return InvalidArgumentError(
          "--system-listen " + server.system_listen +
          " is reachable from other machines; add --allow-remote-clients if that is meant");
    }
  }
  if (auto s = CheckRange("golive-delay-ms", server.golive_delay_ms, 0, 600000); !s.ok()) return s;
  if (auto s = CheckRange("upsert-delay-ms", server.upsert_delay_ms, 0, 60000); !s.ok()) return s;
  if (auto s = CheckRange("inject-upsert-delay-us", server.inject_upsert_delay_us, 0, 1'000'000); !s.ok()) {
    return s;
  }
  if (auto s = CheckRange("session-idle-seconds", server.session_idle_seconds, 0, kWeekSeconds); !s.ok()) {
    return s;
  }
  if (auto s =
          CheckRange("orphaned-session-grace-seconds", server.orphaned_session_grace_seconds, 0, kDaySeconds);
      !s.ok()) {
    return s;
  }
  return cmd;
}

}  // namespace warmup::cli
