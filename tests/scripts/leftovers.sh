#!/usr/bin/env bash
# The ctest fixture that keeps the suite tidy.
#   setup DIR: empties DIR, the TMPDIR every test runs with.
#   check DIR: fails when a test left a file in DIR or a process that still
#              carries TMPDIR=DIR (and ends those processes, which the suite
#              started), so a leak is a red test, not a slow disk or a busy port.
set -euo pipefail
mode=$1 dir=$2
case "$mode" in
  setup)
    rm -rf "$dir"
    mkdir -p "$dir"
    ;;
  check)
    status=0
    left=$(find "$dir" -mindepth 1 -maxdepth 1 2> /dev/null | awk 'NR <= 20')
    if [ -n "$left" ]; then
      echo "leftovers: files left in $dir:"
      echo "$left"
      status=1
    fi
    for environ in /proc/[0-9]*/environ; do
      pid=${environ#/proc/}
      pid=${pid%/environ}
      [ "$pid" = "$$" ] && continue
      # (a process may end, or be another user's, between the glob and the read)
      if { tr '\0' '\n' < "$environ"; } 2> /dev/null | grep -xF "TMPDIR=$dir" > /dev/null; then
        echo "leftovers: process $pid is still running: $({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2> /dev/null)"
        kill -KILL "$pid" 2> /dev/null || true
        status=1
      fi
    done
    [ "$status" -eq 0 ] && echo "leftovers: no file in $dir, no process left running"
    exit "$status"
    ;;
  *)
    echo "usage: leftovers.sh setup|check DIR"
    exit 2
    ;;
esac
