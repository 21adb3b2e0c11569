// (5) A remote reindex through RunLoad: warmup starts its own server (the
// installed `warmup` binary's serve) on a fresh work directory, publishes a
// snapshot into it over evitaDB's protocol, goLive, verifies, stops it, and
// prints the report.
//   remote_reindex WARMUP_BINARY PRISTINE_DIR WORK_DIR
#include <iostream>

#include "warmup/report.h"
#include "warmup/run.h"
#include "warmup/run_result.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: remote_reindex WARMUP_BINARY PRISTINE_DIR WORK_DIR\n";
    return 64;
  }
  warmup::StartedServerTargetSpec started;
  started.server.binary = argv[1];
  started.work_dir = argv[3];
  warmup::SnapshotSourceSpec snapshot;
  snapshot.dir = argv[2];
  warmup::RunSpec spec;
  spec.source = snapshot;
  spec.target = started;
  auto result = warmup::RunLoad(spec);
  if (!result.ok()) {
    std::cerr << result.status().ToString() << "\n";
    return 1;
  }
  std::cout << warmup::RenderTextReport(*result);
  return result->ExitCode();
}
