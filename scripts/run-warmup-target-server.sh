#!/usr/bin/env bash
# The write side alone: warmup serve, the process to profile.
#
#   DATA_DIR     the engine's data directory                 (default: ./warmup-server-data)
#   LISTEN       host:port                                   (default: 127.0.0.1:5555)
#   RESET_DATA   true to clear DATA_DIR first of what warmup made there (only a warmup-marked one)   (default: false)
#   COMPRESS     true for storage.compress                   (default: true)
#   PROFILE      cpu | heap (alloc, the upstream name) | perf: a profiler window from the first
#                upsert of a warming-up catalog to its goLive (warmup serve --profiler), into
#                DATA_DIR/../profile-<RUN>.prof | .heap prefix | .perf.data; docs/profiling.md
#   PROFILE_GOLIVE  true for a second window over goLive, into the same name + .golive
#   RUN          label for the profile file                  (default: run)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/warmup-env.sh"

args=(serve --data-dir "${DATA_DIR:-warmup-server-data}" --listen "${LISTEN:-127.0.0.1:5555}")
[ "${RESET_DATA:-false}" = true ] && args+=(--reset-data)
[ "${COMPRESS:-true}" = true ] && args+=(--compress zstd)
profile=${PROFILE:-}
[ "$profile" = alloc ] && profile=heap
if [ -n "$profile" ]; then
  case "$profile" in
    cpu) suffix=prof ;;
    heap) suffix=heap
      # The heap profiler lives in tcmalloc, which warmup serve runs on only when preloaded.
      tcmalloc=$(ls /usr/lib/*/libtcmalloc.so.4 2> /dev/null | awk 'NR == 1')
      [ -n "$tcmalloc" ] || { echo "PROFILE=heap needs tcmalloc (Debian: libgoogle-perftools-dev)" >&2; exit 1; }
      export LD_PRELOAD=$tcmalloc ;;
    perf) suffix=perf.data ;;
    *) echo "PROFILE must be cpu, heap (alloc) or perf, not '$PROFILE'" >&2; exit 64 ;;
  esac
  out="$(dirname "${DATA_DIR:-warmup-server-data}")/profile-${RUN:-run}.$suffix"
  args+=(--profiler "$profile" --profile-out "$out")
  [ "${PROFILE_GOLIVE:-false}" = true ] && args+=(--profile-golive)
  echo "profiling the server ($profile) into $out" >&2
fi
exec "$WARMUP" "${args[@]}"
