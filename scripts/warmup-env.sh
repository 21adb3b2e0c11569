# Shared by the run-warmup-*.sh wrappers: finds the binary and turns the
# upstream harness's environment variables into warmup flags. Sourced, not run.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${WARMUP:-}" ]; then
  for candidate in "$root/build-release/apps/warmup" "$root/build/apps/warmup"; do
    [ -x "$candidate" ] && WARMUP=$candidate && break
  done
fi
[ -n "${WARMUP:-}" ] || { echo "no warmup binary: run ./scripts/demo.sh or ./scripts/test.sh first, or set WARMUP" >&2; exit 1; }

# Appends the flags every load takes to the array named $1; with $2 = storage,
# also the target's storage flags (work dir, compression), which warmup refuses
# where they would have no effect (a null target, a server already running).
warmup_common_args() {
  local -n out=$1
  if [ -n "${SOURCE:-}" ]; then
    out+=(--source "$SOURCE")
  elif [ -n "${PRISTINE_DIR:-}" ]; then
    out+=(--pristine-dir "$PRISTINE_DIR")
  else
    echo "PRISTINE_DIR (the parent of <catalog>/) or SOURCE (grpc://HOST:PORT/CATALOG) is required" >&2
    exit 64  # EX_USAGE, as warmup's own usage errors
  fi
  out+=(--run "${RUN:-run}")
  if [ "${2:-}" = storage ]; then
    out+=(--work-dir "${WORK_DIR:-warmup-work}")
    [ "${COMPRESS:-true}" = true ] && out+=(--compress zstd)
  fi
  out+=(--max-per-collection "${MAX_PER_COLL:-0}")
  [ -n "${CATALOG:-}" ] && out+=(--catalog "$CATALOG")
  [ -n "${COLLECTIONS:-}" ] && out+=(--collections "$COLLECTIONS")
  [ -n "${VERIFY:-}" ] && out+=(--verify "$VERIFY")
  [ "${SKIP_VERIFY:-false}" = true ] && out+=(--skip-verify)
  [ -n "${PER_ENTITY_CSV:-}" ] && out+=(--per-entity-csv "$PER_ENTITY_CSV")
  [ -n "${REPORT_JSON:-}" ] && out+=(--report-json "$REPORT_JSON")
  [ -n "${HOLD_OPEN_SECONDS:-}" ] && out+=(--hold-open-seconds "$HOLD_OPEN_SECONDS")
  return 0
}
