// The load both `warmup load` and `warmup reindex` run.
#ifndef WARMUP_APPS_WARMUP_LOAD_H_
#define WARMUP_APPS_WARMUP_LOAD_H_

#include "common/options.h"
#include "warmup/run_observer.h"
#include "warmup/run_result.h"
#include "warmup/status.h"

// Opens the source, makes the target `cmd` names and runs the copy, with
// progress lines on a terminal, the per-entity CSV if asked, and `observers`.
warmup::StatusOr<warmup::RunResult> RunLoad(const warmup::cli::LoadCommand& cmd,
                                            const std::vector<warmup::RunObserver*>& observers = {});
// Writes the JSON report where --report-json says (if it does), prints the
// text report, stays alive --hold-open-seconds, and returns the exit status.
int Finish(const warmup::cli::LoadCommand& cmd, const warmup::RunResult& result);
// Prints an error (or --help's text) and returns the exit status for it.
int FailWith(const warmup::Status& status);

#endif  // WARMUP_APPS_WARMUP_LOAD_H_
