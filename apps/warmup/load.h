// The load both `warmup load` and `warmup reindex` run.
#ifndef WARMUP_APPS_WARMUP_LOAD_H_
#define WARMUP_APPS_WARMUP_LOAD_H_

#include "common/options.h"
#include "warmup/run_result.h"
#include "warmup/status.h"

// Opens the source, makes the target `cmd` names, runs the copy (with
// progress lines on a terminal) and writes the JSON report if asked.
warmup::StatusOr<warmup::RunResult> RunLoad(const warmup::cli::LoadCommand& cmd);
// Prints an error (or --help's text) and returns the exit status for it.
int FailWith(const warmup::Status& status);

#endif  // WARMUP_APPS_WARMUP_LOAD_H_
