#!/bin/bash
# usage: measure.sh <gate checkout> <workdir>: init (as documented, --no-check), turn A (a code edit), turn B and C
# (comments only), each stop timed with its gates; then mocha's own full run.
GATE=$(cd "$1" && pwd); W=$2; HERE=$(cd "$(dirname "$0")" && pwd)
"$HERE/fresh-repo.sh" $GATE $W
cd $W/repo
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$W/home/.gitconfig TMPDIR=$W/tmp PATH=$W/repo/node_modules/.bin:$W/bin:$PATH
gate init --yes --no-check > $W/init.out 2>&1
git add -A && git commit -qm "gate init"
node "$HERE/drive.mjs" $W prompt "edit@@src/jsutils/didYouMean.ts@@const MAX_SUGGESTIONS = 5;@@const MAX_SUGGESTIONS = 2 + 3;" stop
git add -A && git commit -qm "turn A"
node "$HERE/drive.mjs" $W prompt "edit@@src/jsutils/didYouMean.ts@@Given [ A, B, C ] return@@Given [ A, B, C ], return" stop
git add -A && git commit -qm "turn B"
node "$HERE/drive.mjs" $W prompt "edit@@src/jsutils/inspect.ts@@Used to print values in error messages.@@Used to print values in error messages (and nowhere else)." stop
/usr/bin/time -f "mocha full run: %e s" npx mocha --full-trace 'src/**/__tests__/**/*-test.ts' > /dev/null 2> $W/mocha.time; cat $W/mocha.time | tail -1
