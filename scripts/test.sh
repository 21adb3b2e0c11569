#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors, and runs
# every test through ctest. Idempotent; what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARMUP_WERROR=ON
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
