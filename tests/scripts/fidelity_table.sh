#!/usr/bin/env bash
# Keeps docs/engine.md's fidelity table and the tests together: every row
# names, in its last cell, the test cases that prove what it claims, as
# `tests/DIR/FILE_test.cc` "a prefix of the case's name…", and each must be a
# case of that file in the test binary. A row the engine leaves out ("**no**")
# may say "none" instead, with what is done in its place.
# usage: fidelity_table.sh WARMUP_TESTS ENGINE_MD
set -euo pipefail
binary=$1 doc=$2
"$binary" --list-test-cases --reporters=xml > "${TMPDIR:-/tmp}/fidelity_cases.$$.xml"
trap 'rm -f "${TMPDIR:-/tmp}/fidelity_cases.$$.xml"' EXIT
python3 - "${TMPDIR:-/tmp}/fidelity_cases.$$.xml" "$doc" << 'PY'
import re, sys
import xml.etree.ElementTree as ET

cases = [(c.get("name"), c.get("filename")) for c in ET.parse(sys.argv[1]).getroot().iter("TestCase")]
lines = open(sys.argv[2], encoding="utf-8").read().splitlines()
header = next((i for i, l in enumerate(lines) if l.startswith("| evitaDB structure | the engine |")), None)
if header is None:
    sys.exit("fidelity_table: no fidelity table (a line starting '| evitaDB structure | the engine |') in " + sys.argv[2])
if not lines[header].rstrip().endswith("| proved by |"):
    sys.exit("fidelity_table: the table has no 'proved by' column: " + lines[header])
problems, rows = [], 0
for number, line in enumerate(lines[header + 2:], start=header + 3):
    if not line.startswith("|"):
        break
    rows += 1
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
    if len(cells) != 4:
        problems.append("line %d: %d cells, not 4" % (number, len(cells)))
        continue
    structure, done, proved = cells[0], cells[1], cells[3]
    named = re.findall(r'`(tests/[^`]+)` "([^"]+)"', proved)
    if not named:
        if done == "**no**" and proved.startswith("none"):
            continue
        problems.append("line %d (%s): names no test" % (number, structure[:60]))
    for path, name in named:
        prefix = name[:-1] if name.endswith("…") else name
        exact = not name.endswith("…")
        found = [c for c in cases if (c[0] == prefix if exact else c[0].startswith(prefix))]
        if not found:
            problems.append('line %d (%s): no test case named "%s"' % (number, structure[:60], name))
        elif not any(f.endswith("/" + path) or f == path for _, f in found):
            problems.append('line %d (%s): "%s" is not in %s but in %s' %
                            (number, structure[:60], name, path, ", ".join(sorted({f for _, f in found}))))
if rows == 0:
    problems.append("the table has no rows")
if problems:
    print("fidelity_table: docs/engine.md's table and the tests disagree:")
    print("\n".join("  " + p for p in problems))
    sys.exit(1)
print("fidelity_table: %d rows, each proved by a test case that exists where it says" % rows)
PY
