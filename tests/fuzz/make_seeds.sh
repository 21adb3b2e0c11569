#!/usr/bin/env bash
# Rewrites the fuzz targets' seed corpora (corpus/<target>/) from what this
# warmup build writes: a small tiny-profile snapshot, plain and zstd, and an
# export of each. Run after a change of the snapshot format or the protocol.
# usage: tests/fuzz/make_seeds.sh WARMUP_BINARY
set -euo pipefail
warmup=$1
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$warmup" generate --profile tiny --scale 0.05 --out "$scratch/plain" --zip "$scratch/plain.zip" > /dev/null
"$warmup" generate --profile tiny --scale 0.05 --catalog tinyz --compress zstd --out "$scratch/zstd" \
  --zip "$scratch/zstd.zip" > /dev/null
snapshot=$scratch/plain/tiny
rm -rf "$here/corpus"
mkdir -p "$here"/corpus/{record,manifest,zip,evitaql,proto}
for f in "$snapshot"/collections/00[0-3]-*.entities; do cp "$f" "$here/corpus/record/$(basename "$f" .entities)"; done
cp "$snapshot/manifest.json" "$here/corpus/manifest/plain.json"
cp "$scratch/zstd/tinyz/manifest.json" "$here/corpus/manifest/zstd.json"
cp "$scratch/plain.zip" "$here/corpus/zip/plain.zip"
cp "$scratch/zstd.zip" "$here/corpus/zip/zstd.zip"
# One sealed entity (the first record of each small file, its varint length
# stripped) behind selector byte 0, and the schema behind selector byte 2.
python3 - "$snapshot" "$here/corpus/proto" << 'PY'
import glob, os, sys
snapshot, out = sys.argv[1], sys.argv[2]
for path in sorted(glob.glob(snapshot + "/collections/00[0-3]-*.entities")):
    data = open(path, "rb").read()
    length, shift, i = 0, 0, 0
    while True:
        b = data[i]; i += 1
        length |= (b & 0x7F) << shift; shift += 7
        if b < 0x80: break
    name = os.path.basename(path).split("-", 1)[1].split(".")[0]
    open(os.path.join(out, "entity-" + name), "wb").write(b"\x00" + data[i:i + length])
open(os.path.join(out, "schema"), "wb").write(b"\x02" + open(snapshot + "/schema.pb", "rb").read())
PY
cat > "$here/corpus/evitaql/page-query" << 'Q'
query(collection(?), orderBy(entityPrimaryKeyNatural(?)), require(page(?, ?), entityFetch(attributeContentAll(), hierarchyContent(), associatedDataContentAll(), priceContentAll(), referenceContentAllWithAttributes(), dataInLocalesAll())))
Q
printf '%s' "query(collection('Product'), filterBy(entityPrimaryKeyInSet(1, 2, 3)), require(entityFetch()))" \
  > "$here/corpus/evitaql/primary-keys"
printf '%s' "query(collection('Brand'), require(page(2, 50)))" > "$here/corpus/evitaql/page"
echo "seeds written to $here/corpus"
