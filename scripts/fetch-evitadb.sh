#!/usr/bin/env bash
# Fetches evitaDB's standalone server, io.evitadb:evita_server:VERSION, with
# everything it needs to run, from Maven Central into a cache directory, and
# prints that directory's lib/ (java -cp 'LIB/*' io.evitadb.server.EvitaServer).
# A cached version is used as it is, without the network.
#
#   scripts/fetch-evitadb.sh VERSION [CACHE_DIR]   CACHE_DIR defaults to build/evitadb
#
# Exit status: 0 with the lib directory on stdout; 3 when the server cannot be
# had (not published where Maven looks, no network, no Maven or Java), the
# reason on stderr, so that a test can say "skipped: no evitaDB server (...)";
# 64 for a usage error.
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: fetch-evitadb.sh VERSION [CACHE_DIR]" >&2; exit 64; }
version=$1
[[ $version =~ ^[0-9][0-9A-Za-z.+-]*$ ]] || { echo "fetch-evitadb: not a version: $version" >&2; exit 64; }
cache=${2:-build/evitadb}
dest=$cache/$version
unavailable() { echo "fetch-evitadb: io.evitadb:evita_server:$version: $*" >&2; exit 3; }

if [ -f "$dest/complete" ]; then
  echo "$dest/lib"
  exit 0
fi
command -v java > /dev/null || unavailable "no java on PATH (scripts/install-deps.sh installs it)"
command -v mvn > /dev/null || unavailable "no mvn on PATH (scripts/install-deps.sh installs it)"
command -v curl > /dev/null || unavailable "no curl on PATH (scripts/install-deps.sh installs it)"

# Ask for the POM first: a version the registry does not serve is known in
# one request, not after Maven has fetched its own plugins.
repo=${WARMUP_MAVEN_REPOSITORY:-https://repo.maven.apache.org/maven2}
pom_url=$repo/io/evitadb/evita_server/$version/evita_server-$version.pom
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$pom_url" || true)
[ "$code" = 200 ] || unavailable "$pom_url answered ${code:-nothing} (HTTP), not 200"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/pom.xml" << POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>warmup</groupId>
  <artifactId>fetch-evitadb</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>io.evitadb</groupId>
      <artifactId>evita_server</artifactId>
      <version>$version</version>
    </dependency>
  </dependencies>
</project>
POM
mkdir -p "$work/lib"
if ! timeout 900 mvn -B -q -f "$work/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$work/lib" > "$work/mvn.log" 2>&1; then
  tail -5 "$work/mvn.log" >&2
  unavailable "Maven could not resolve it and its dependencies (the lines above)"
fi
ls "$work/lib"/evita_server-*.jar > /dev/null 2>&1 || unavailable "Maven resolved no evita_server jar"
mkdir -p "$dest"
rm -rf "$dest/lib"
mv "$work/lib" "$dest/lib"
touch "$dest/complete"
echo "$dest/lib"
