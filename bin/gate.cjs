#!/usr/bin/env node
'use strict';
// `gate run` runs at the end of every agent turn: it gets a one-file CommonJS bundle (no ESM
// loader, nothing it doesn't need). Every other command loads the ES module build lazily.
if (process.argv[2] === 'run') require('../dist/hook.cjs').main(process.argv.slice(3));
else import('../dist/cli.js').then((cli) => cli.main(process.argv.slice(2)));
