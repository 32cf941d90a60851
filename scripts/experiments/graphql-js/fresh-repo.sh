#!/bin/bash
# usage: fresh-repo.sh <gate checkout (bin/gate.cjs, dist/)> <workdir>: $W/repo is a new git repo of
# the prepared graphql-js, with its own HOME, and that gate on PATH as `gate`.
set -e
GATE=$1; W=$2; SRC=${SRC:-/tmp/gqljs}
rm -rf "$W"; mkdir -p "$W/home" "$W/bin" "$W/tmp"
cp -a "$SRC" "$W/repo"; rm -rf "$W/repo/.git"
printf '[user]\n\tname = Bench\n\temail = b@example.test\n[init]\n\tdefaultBranch = main\n' > "$W/home/.gitconfig"
ln -s "$GATE/bin/gate.cjs" "$W/bin/gate"
cd "$W/repo"
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$W/home/.gitconfig TMPDIR=$W/tmp
git init -q && git add -A && git commit -qm a7db60be
