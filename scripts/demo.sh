#!/usr/bin/env bash
# Installs what is missing, builds warmup in Release, and runs the main job on
# the default dataset.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARMUP_BUILD_TESTS=OFF
cmake --build build-release -j"$(nproc)"

warmup=build-release/apps/warmup
"$warmup" version

# The default dataset: the production-shaped catalog at a small scale, generated once.
data=${WARMUP_DEMO_DIR:-build-release/demo-data}
if [ ! -d "$data/senesi" ]; then
  "$warmup" generate --profile senesi --scale 0.05 --out "$data"
fi
echo
"$warmup" inspect "$data/senesi"
echo
# Publish it, the default way: warmup reindex starts `warmup serve` on a fresh data directory, loads
# every entity over evitaDB's gRPC protocol into a WARM_UP catalog, goLive, verifies, stops the server.
"$warmup" reindex --pristine-dir "$data" --catalog senesi --compress zstd \
  --work-dir build-release/demo-work --run demo
