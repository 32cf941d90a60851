#!/bin/bash
# graphql-js at a7db60be, installed once into $SRC (default /tmp/gqljs) from a bare mirror
# (GATE_BENCH_MIRRORS, default /work/.mirror): the issue 42 measurements start from copies of it.
set -e
SRC=${SRC:-/tmp/gqljs}
MIRROR=${GATE_BENCH_MIRRORS:-/work/.mirror}/graphql+graphql-js/repo
[ -d "$SRC/node_modules" ] && exit 0
mkdir -p "$SRC" && git --git-dir="$MIRROR" archive a7db60be | tar -x -C "$SRC"
cd "$SRC" && npm ci --no-audit --no-fund
