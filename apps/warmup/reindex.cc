// warmup reindex: one command, one number. Starts `warmup serve` on a fresh
// data directory under supervision (or uses --address), loads over evitaDB's
// protocol, goLive, verify, stops the server, and reports with the server's
// figures as data (RunLoad with a StartedServerTargetSpec). SIGINT/SIGTERM
// stop the load after the current upsert (the server after the stop grace, or
// at a second signal); the partial report, marked interrupted, follows.
#include "common/run_command.h"

int Reindex(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseReindex(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  return RunLoadUntilInterrupted(*cmd, "reindex");
}
