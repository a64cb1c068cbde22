#!/usr/bin/env bash
# Installs ccusage, pinned, as the speed reference of the replay and import
# bench (bench/ccusage.js): the tool people already run on Claude Code and
# Codex logs. It lives in a cache folder outside the repository, never in
# node_modules, and is never a dependency. Idempotent: a complete install is
# left as it is. Prints the folder.
set -euo pipefail

VERSION=20.0.24
DIR="${CCUSAGE_REFERENCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/theway-context/ccusage-$VERSION}"
MARK="$DIR/node_modules/ccusage/package.json"

if [ -f "$MARK" ] && grep -q "\"version\": \"$VERSION\"" "$MARK"; then
	echo "ccusage $VERSION reference: $DIR (already installed)"
	exit 0
fi

mkdir -p "$DIR"
cat >"$DIR/package.json" <<JSON
{
  "name": "theway-context-ccusage-reference",
  "private": true,
  "dependencies": { "ccusage": "$VERSION" }
}
JSON
(cd "$DIR" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error)
echo "ccusage $VERSION reference: $DIR"
