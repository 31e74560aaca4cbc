#!/usr/bin/env bash
# `npm run bench:baseline -- <git ref> [name…]`: the scenarios run first on the code at <ref>
# (with its own bench/ and dependencies, in a throwaway worktree), then on this checkout. This
# machine's speed swings by a factor of two or more between hours and machines (docs/performance.md),
# so two versions' figures compare only when measured like this, one after the other.
set -euo pipefail
ref=${1:?usage: npm run bench:baseline -- <git ref> [name…]}
shift
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'git worktree remove --force "$dir" >/dev/null 2>&1 || rm -rf "$dir"' EXIT
git worktree add --detach "$dir" "$ref" >/dev/null 2>&1
echo "== baseline: $(git log -1 --format='%h %s' "$ref")"
(cd "$dir" && npm ci --silent --no-audit --no-fund >/dev/null && npm run --silent bench -- "$@")
echo
echo "== this checkout: $(git log -1 --format='%h %s')$(git diff --quiet HEAD || echo ' (with uncommitted changes)')"
npm run --silent bench -- "$@"
