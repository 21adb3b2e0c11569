#!/usr/bin/env bash
# The installed package as another project sees it: installs the build into a
# fresh prefix, checks that only the public headers went in, builds
# examples/ against that prefix alone (find_package(warmup CONFIG), no build
# tree on any path) and runs every example, checking what each prints.
# usage: examples_from_install.sh BUILD_DIR SOURCE_DIR [CXX CXX_FLAGS LINKER_FLAGS]
# The compiler and flags are the build's own, so that a consumer of a
# sanitized library links the sanitizer too.
set -euo pipefail
build=$1
source=$2
toolchain=()
[ $# -ge 3 ] && toolchain=(-DCMAKE_CXX_COMPILER="$3" -DCMAKE_CXX_FLAGS="${4:-}" -DCMAKE_EXE_LINKER_FLAGS="${5:-}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix=$dir/prefix

cmake --install "$build" --prefix "$prefix" > "$dir/install.log" || { cat "$dir/install.log"; exit 1; }
[ -f "$prefix/lib/cmake/warmup/warmupConfig.cmake" ] || { echo "no warmupConfig.cmake installed"; exit 1; }
[ -x "$prefix/bin/warmup" ] || { echo "the CLI was not installed"; exit 1; }
"$prefix/bin/warmup" --version | grep "^warmup " > /dev/null || { echo "installed CLI does not run"; exit 1; }
# The public API is include/warmup and nothing else: no internal or generated header.
extra=$(find "$prefix/include" -type f ! -path "$prefix/include/warmup/*.h")
[ -z "$extra" ] || { echo "installed headers outside include/warmup: $extra"; exit 1; }
diff <(cd "$source/libwarmup/include/warmup" && ls) <(cd "$prefix/include/warmup" && ls) ||
  { echo "installed headers differ from libwarmup/include/warmup"; exit 1; }

launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$source/examples" -B "$dir/examples" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" "${toolchain[@]}" > "$dir/configure.log" 2>&1 ||
  { cat "$dir/configure.log"; exit 1; }
# The build tree must not leak in: the package's paths are the prefix's.
if grep -rq "$build" "$prefix/lib/cmake/warmup"; then
  echo "the installed package refers to the build tree:"; grep -r "$build" "$prefix/lib/cmake/warmup"; exit 1
fi
cmake --build "$dir/examples" -j"$(nproc)" > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }

# Each example's output is checked below; a failing one prints what it said.
run() {  # run NAME ARGS...: the example's standard output and error
  local out
  local rc=0
  out=$("$@" 2>&1) || rc=$?
  [ "$rc" -eq 0 ] || { echo "$(basename "$1") exited $rc:" >&2; echo "$out" >&2; return 1; }
  echo "$out"
}
expect() {  # expect NAME PATTERN OUTPUT
  grep -qE "$2" <<< "$3" || { echo "$1: expected /$2/ in:"; echo "$3"; exit 1; }
}
ex=$dir/examples
out=$(run "$ex/entity_digest")
expect entity_digest "^digest [0-9a-f]{16,}" "$out"
out=$(run "$ex/generate_and_query" "$dir/data1")
expect generate_and_query "is live with [1-9][0-9]* live products" "$out"
expect generate_and_query "^Product indexes at goLive: [1-9]" "$out"
out=$(run "$ex/latency_histogram_target" "$dir/data2")
expect latency_histogram_target "^Product +  <[0-9]+us:[0-9]+" "$out"
printf '%s\n' '{"pk": 1, "title": "Babička", "year": 1855}' '{"pk": 2, "title": "R.U.R.", "year": 1920}' \
  '{"pk": 5, "title": "Krakatit"}' > "$dir/books.jsonl"
out=$(run "$ex/jsonl_source" "$dir/books.jsonl" "$dir/data3")
expect jsonl_source "Book +3 +3" "$out"
expect jsonl_source "^RUN_STATUS=MEASUREMENT-DONE-run$" "$out"
printf '%s\n' '{"pk": 1, "title": "a"}' '{"pk": 2, "title": "b"}' '{"pk": 2, "title": "c"}' > "$dir/bad.jsonl"
set +e
out=$("$ex/jsonl_source" "$dir/bad.jsonl" "$dir/data4" 2>&1)
status=$?
set -e
[ "$status" -ne 0 ] || { echo "jsonl_source accepted a pk that does not ascend"; exit 1; }
expect jsonl_source "bad.jsonl:3: pk 2 does not ascend" "$out"
"$prefix/bin/warmup" generate --profile tiny --out "$dir/pristine" > /dev/null
out=$(run "$ex/remote_reindex" "$prefix/bin/warmup" "$dir/pristine" "$dir/work5")
expect remote_reindex "verification: VERIFIED" "$out"
expect remote_reindex "^RUN_STATUS=MEASUREMENT-DONE-run$" "$out"
expect remote_reindex "^  server process       warmup serve" "$out"
[ -d "$dir/work5/data" ] || { echo "remote_reindex: the started server's data is not in WORK/data"; exit 1; }
out=$(run "$ex/jsonl_target" "$dir/tiny.jsonl")
expect jsonl_target "target kind jsonl" "$out"
expect jsonl_target "verification: VERIFIED" "$out"
[ "$(wc -l < "$dir/tiny.jsonl")" -eq 300 ] || { echo "jsonl_target: not the tiny catalog's 300 lines"; exit 1; }
grep -q '^{"attributes":{.*},"pk":[0-9]*,"type":"Product"}$' "$dir/tiny.jsonl" ||
  { echo "jsonl_target: no Product line"; head -3 "$dir/tiny.jsonl"; exit 1; }
# A file that exists is refused, and left as it was.
before=$(md5sum < "$dir/tiny.jsonl")
set +e
out=$("$ex/jsonl_target" "$dir/tiny.jsonl" 2>&1)
status=$?
set -e
[ "$status" -ne 0 ] || { echo "jsonl_target replaced a file that existed"; exit 1; }
expect jsonl_target "tiny.jsonl exists: a run writes a file of its own and replaces none" "$out"
[ "$(md5sum < "$dir/tiny.jsonl")" = "$before" ] || { echo "jsonl_target changed a file it refused"; exit 1; }
out=$(run "$ex/progress_observer" 1000)
expect progress_observer "^ +1000 upserts, now in " "$out"
expect progress_observer "^goLive done in " "$out"
# The Python example against the installed package, where the build made one.
python_package=$prefix/lib/python3/dist-packages
if [ -d "$python_package/warmup" ]; then
  out=$(cd "$dir" && run env PYTHONPATH="$python_package" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 \
    "$source/examples/python/compare_medians.py" --scale 0.001 --out "$dir/medians.png")
  expect compare_medians "^wrote " "$out"
  [ -s "$dir/medians.png" ] || { echo "compare_medians.py wrote no chart"; exit 1; }
fi

# README's "Use it as a library" snippet, as written.
snippet() {  # snippet NAME: the fenced block after "<!-- snippet: NAME -->" in README.md
  awk -v name="$1" '$0 == "<!-- snippet: " name " -->" { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$source/README.md"
}
mkdir "$dir/readme"
snippet library/CMakeLists.txt > "$dir/readme/CMakeLists.txt"
snippet library/publish.cc > "$dir/readme/publish.cc"
[ -s "$dir/readme/CMakeLists.txt" ] && [ -s "$dir/readme/publish.cc" ] ||
  { echo "README.md lost its library snippets"; exit 1; }
cmake -S "$dir/readme" -B "$dir/readme/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" "${toolchain[@]}" \
  > "$dir/readme.log" 2>&1 && cmake --build "$dir/readme/build" >> "$dir/readme.log" 2>&1 ||
  { cat "$dir/readme.log"; exit 1; }
out=$(cd "$dir/readme" && ./build/publish)
expect "README snippet" "^RUN_STATUS=MEASUREMENT-DONE-library$" "$out"
echo "examples and the README snippet built from $prefix and run: OK"
