#!/usr/bin/env bash
# Installs the pi coding agent, pinned, as the reference of the differential
# test (test/pi-diff.test.ts). It is about 200 MB with its dependencies, so it
# lives in a cache folder outside the repository, never in node_modules.
# Idempotent: a complete install is left as it is. Prints the folder.
set -euo pipefail

VERSION=0.73.1
DIR="${PI_REFERENCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/theway-context/pi-$VERSION}"
MARK="$DIR/node_modules/@mariozechner/pi-coding-agent/package.json"

if [ -f "$MARK" ] && grep -q "\"version\": \"$VERSION\"" "$MARK"; then
	echo "pi $VERSION reference: $DIR (already installed)"
	exit 0
fi

mkdir -p "$DIR"
# pi's own packages are pinned to the same version, whatever its ranges allow.
cat >"$DIR/package.json" <<JSON
{
  "name": "theway-context-pi-reference",
  "private": true,
  "dependencies": { "@mariozechner/pi-coding-agent": "$VERSION" },
  "overrides": {
    "@mariozechner/pi-agent-core": "$VERSION",
    "@mariozechner/pi-ai": "$VERSION",
    "@mariozechner/pi-tui": "$VERSION"
  }
}
JSON
(cd "$DIR" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error)
echo "pi $VERSION reference: $DIR"
