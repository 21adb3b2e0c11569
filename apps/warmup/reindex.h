// One reindex against a server of its own: what `warmup reindex` and
// `warmup ab` run.
#ifndef WARMUP_APPS_WARMUP_REINDEX_H_
#define WARMUP_APPS_WARMUP_REINDEX_H_

#include "common/options.h"
#include "warmup/run_result.h"
#include "warmup/status.h"

// Starts `cmd.server`'s serve (its binary, or this one; its extra arguments)
// on a fresh `cmd.target.work_dir`, loads over evitaDB's protocol, goLive,
// verifies, stops the server, and returns the run with the server's figures.
// The server's data directory is WORK/data, made fresh. SIGINT/SIGTERM stop
// the load after the current upsert, the server after its stop grace if the
// load has not stopped by then, or at a second signal; the result is then
// AbortReason::kInterrupted, whatever the load saw, and its notes say where a
// partial catalog that could not be dropped is. `*interrupted_by` gets the
// signal, 0 when none came. `command` names the
// command in the messages.
// Errors: the work directory, the server's start, the load's (see RunLoad).
warmup::StatusOr<warmup::RunResult> ReindexWithOwnServer(const warmup::cli::LoadCommand& cmd,
                                                         const char* command, int* interrupted_by);

#endif  // WARMUP_APPS_WARMUP_REINDEX_H_
