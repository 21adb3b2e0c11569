#!/usr/bin/env bash
# The whole job, one command, one number: warmup reindex with the upstream
# harness's environment variables. Exits with the loader's status (0/1/2).
#
#   PRISTINE_DIR  parent of the <CATALOG>/ snapshot          (this or SOURCE is required)
#   SOURCE        read a live catalog instead: grpc://HOST:PORT/CATALOG
#   CATALOG       source catalog                            (default: the only one there)
#   RUN           run label                                  (default: run)
#   TARGET_MODE   remote | embedded                          (default: remote)
#   WORK_DIR      the target's data directory, marker-owned  (default: ./warmup-work)
#   MAX_PER_COLL  cap per collection, 0 = all                (default: 0)
#   COLLECTIONS   comma-separated subset                     (default: all)
#   VERIFY        counts | content | none (--verify)         (default: counts)
#   SKIP_VERIFY   true for --verify none (older spelling)    (default: false)
#   COMPRESS      true for storage.compress                  (default: true)
#   PER_ENTITY_CSV, REPORT_JSON, HOLD_OPEN_SECONDS, SERVER_BINARY, ADDRESS: as the flags of that name
#   SERVER_CMD    any server instead of warmup serve (--server-command), e.g. evitaDB:
#                 'java -Xmx{xmx} -Xlog:gc:file={gclog} -jar evita-server.jar ...' (docs/evitadb.md);
#                 its storage settings are its own, so COMPRESS does not apply
#   SERVER_XMX    the command's {xmx}, e.g. 8g (state it next to any number)
#   WARMUP        the warmup binary                          (default: build-release, else build)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/warmup-env.sh"

mode=${TARGET_MODE:-remote}
args=(reindex --target "$mode")
if [ "$mode" = remote ] && [ -n "${ADDRESS:-}" ]; then  # a running server: none of ours to start
  warmup_common_args args
  args+=(--address "$ADDRESS")
else
  if [ "$mode" = remote ] && [ -n "${SERVER_CMD:-}" ]; then
    warmup_common_args args
    args+=(--work-dir "${WORK_DIR:-warmup-work}" --server-command "$SERVER_CMD")
    [ -n "${SERVER_XMX:-}" ] && args+=(--server-xmx "$SERVER_XMX")
  else
    warmup_common_args args storage
    [ "$mode" = remote ] && [ -n "${SERVER_BINARY:-}" ] && args+=(--server-binary "$SERVER_BINARY")
  fi
fi
exec "$WARMUP" "${args[@]}"
