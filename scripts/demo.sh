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
echo
echo "== An entity built with the public model, and its content digest =="
build-release/examples/entity_digest
