#!/usr/bin/env bash
# The read side alone against a running server (or embedded / null):
# warmup load with the upstream harness's environment variables; exits with
# the loader's status (0/1/2). Variables as in run-warmup-reindex.sh, plus
#   TARGET_MODE   remote | embedded | null                   (default: remote)
#   ADDRESS       the server, host:port                      (default: 127.0.0.1:5555)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/warmup-env.sh"

mode=${TARGET_MODE:-remote}
args=(load --target "$mode")
[ "$mode" = remote ] && args+=(--address "${ADDRESS:-127.0.0.1:5555}")
if [ "$mode" = embedded ]; then warmup_common_args args storage; else warmup_common_args args; fi
exec "$WARMUP" "${args[@]}"
