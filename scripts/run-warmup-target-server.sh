#!/usr/bin/env bash
# The write side alone: warmup serve, the process to profile.
#
#   DATA_DIR     the engine's data directory                 (default: ./warmup-server-data)
#   LISTEN       host:port                                   (default: 127.0.0.1:5555)
#   RESET_DATA   true to wipe DATA_DIR first (only a warmup-marked one)   (default: false)
#   COMPRESS     true for storage.compress                   (default: true)
#   PROFILE=cpu  record the server with `perf record -g` into DATA_DIR/../perf-<RUN>.data
#   RUN          label for the profile file                  (default: run)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/warmup-env.sh"

args=(serve --data-dir "${DATA_DIR:-warmup-server-data}" --listen "${LISTEN:-127.0.0.1:5555}")
[ "${RESET_DATA:-false}" = true ] && args+=(--reset-data)
[ "${COMPRESS:-true}" = true ] && args+=(--compress zstd)
if [ "${PROFILE:-}" = cpu ]; then
  command -v perf > /dev/null || { echo "PROFILE=cpu needs perf (Debian package linux-perf)" >&2; exit 1; }
  out="$(dirname "${DATA_DIR:-warmup-server-data}")/perf-${RUN:-run}.data"
  echo "profiling the server with perf record into $out" >&2
  exec perf record -g -F 999 -o "$out" -- "$WARMUP" "${args[@]}"
fi
exec "$WARMUP" "${args[@]}"
