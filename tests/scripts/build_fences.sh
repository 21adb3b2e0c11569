#!/usr/bin/env bash
# The fences libwarmup/CMakeLists.txt builds around each folder, tried: a
# file compiled with a folder's own flags (from compile_commands.json) may
# include what the folder USES and not what it does not, and only the folders
# that speak protobuf see a generated header. Each refusal has a control that
# must compile, so that a broken probe cannot pass for a fence.
# usage: build_fences.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
commands=$build/compile_commands.json
[ -f "$commands" ] || { echo "build_fences: no $commands"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0

# probe FOLDER_FILE LINE: compiles LINE with the flags of FOLDER_FILE (a
# source under libwarmup/src), syntax only; exit status of the compiler, its
# output in $scratch/out.
probe() {
  local file=$src/libwarmup/src/$1
  local command
  command=$(python3 - "$commands" "$file" <<'PY'
import json, shlex, sys
for entry in json.load(open(sys.argv[1])):
    if entry["file"] == sys.argv[2]:
        args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
        # drop the launcher (ccache), the output and the source: keep the flags
        if args[0].endswith("ccache"):
            args = args[1:]
        out, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("-o", "-c", "-MF", "-MT"):
                skip = True
                continue
            if a in ("-MD", "-MMD"):
                continue
            out.append(a)
        print(shlex.join(out))
        break
PY
)
  [ -n "$command" ] || { echo "build_fences: $1 is not in $commands"; exit 1; }
  printf '%s\n' "$2" > "$scratch/probe.cc"
  (cd "$build" && eval "$command -fsyntax-only $scratch/probe.cc") > "$scratch/out" 2>&1
}
expect() {  # expect compiles|refuses FOLDER_FILE HEADER: compiles #include "HEADER" there
  local want=$1 got=refuses
  probe "$2" "#include \"$3\"" && got=compiles
  if [ "$got" != "$want" ]; then
    echo "build_fences: #include \"$3\" with the flags of $2 $got, expected it $want"
    sed -n 1,5p "$scratch/out"
    failed=1
  elif [ "$got" = refuses ] && ! grep -qF -e "$3: No such file" -e "'$3' file not found" "$scratch/out"; then
    # (GCC says the first, clang the second)
    # refused, but for another reason than the fence: the probe proves nothing
    echo "build_fences: #include \"$3\" with the flags of $2 failed, but not because it was not found:"
    sed -n 1,5p "$scratch/out"
    failed=1
  fi
}

# Internal headers: a folder sees itself and what it USES, not what stands
# above it (the headers refused here hold no generated code, so only the
# folder fence can refuse them).
expect compiles copy/copy_engine.cc result/environment.h
expect refuses copy/copy_engine.cc engine/collection.h
expect refuses copy/copy_engine.cc rpc/grpc_source_client.h
expect compiles engine/catalog.cc codec/value_convert.h
expect refuses engine/catalog.cc server/live_connections.h
expect compiles snapshot/manifest.cc common/names.h
expect refuses snapshot/manifest.cc rpc/grpc_source_client.h
expect compiles result/run_result.cc result/environment.h
expect refuses result/run_result.cc engine/collection.h
# Generated protocol headers: only the folders that speak protobuf. (gRPC's
# and protobuf's own headers are in /usr/include, which every file sees.)
expect compiles codec/value_convert.cc GrpcEntity.pb.h
expect refuses result/run_result.cc GrpcEntity.pb.h
expect refuses copy/copy_engine.cc GrpcEntity.pb.h
expect compiles run/run_load.cc warmup/run.h
expect refuses run/run_load.cc GrpcEntity.pb.h

[ "$failed" -eq 0 ] && echo "build_fences: every folder sees what it uses and no more"
exit "$failed"
