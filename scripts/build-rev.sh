#!/usr/bin/env bash
# Builds the warmup binary of a git revision once, in a cache of its own, and
# prints its path, so that two builds can be compared:
#   warmup ab --a "$(scripts/build-rev.sh v0.1.0)" --b build/apps/warmup --pristine-dir ...
# The revision is checked out as a detached git worktree under the cache
# (WARMUP_REV_CACHE, default ~/.cache/warmup/revs/<commit>) and built with the
# same build type as a normal build (RelWithDebInfo, Ninja, ccache when
# installed; tests, examples, benchmarks and bindings off). A revision built
# before is not built again. The build's output goes to stderr and to
# <cache>/<commit>/build.log; stdout is the binary's path alone.
# usage: scripts/build-rev.sh REV [BUILD_TYPE]
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/build-rev.sh REV [BUILD_TYPE]   (prints the path of that revision's warmup binary)" >&2
  exit 64
fi
rev=$1
build_type=${2:-RelWithDebInfo}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
if ! commit=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}"); then
  echo "build-rev: '$rev' is not a revision of $root (try a commit, tag or branch: git log --oneline)" >&2
  exit 1
fi
cache=${WARMUP_REV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warmup/revs}
dir=$cache/$commit-$build_type
binary=$dir/build/apps/warmup
if [ -x "$binary" ]; then
  echo "$binary"
  exit 0
fi
mkdir -p "$dir"
if [ ! -d "$dir/src" ]; then
  git -C "$root" worktree prune
  git -C "$root" worktree add --detach --force "$dir/src" "$commit" >&2
fi
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$cache  # revisions share cache entries where their files are the same
fi
echo "build-rev: building $rev ($commit, $build_type) in $dir" >&2
{
  cmake -S "$dir/src" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" "${launcher[@]}" \
    -DWARMUP_BUILD_TESTS=OFF -DWARMUP_BUILD_EXAMPLES=OFF -DWARMUP_BUILD_BENCHMARKS=OFF -DWARMUP_BUILD_PYTHON=OFF
  cmake --build "$dir/build" --target warmup_cli
} > "$dir/build.log" 2>&1 || {
  tail -n 30 "$dir/build.log" >&2
  echo "build-rev: the build of $rev failed; the whole log is $dir/build.log" >&2
  exit 1
}
[ -x "$binary" ] || { echo "build-rev: the build of $rev made no $binary" >&2; exit 1; }
echo "$binary"
