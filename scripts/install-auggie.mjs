#!/usr/bin/env node
// Installs the real Auggie CLI (Augment Code), pinned, into .cache/auggie/<version>/ for the
// end-to-end tests, and prints the path of its entry script (run it with node). Safe to run twice;
// needs no terminal.
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('auggie'); // scripts/cli-versions.mjs
const PACKAGE = '@augmentcode/auggie';
const entryRelative = join('node_modules', ...PACKAGE.split('/'), 'augment.mjs');

installPinned({
  script: 'install-auggie',
  cacheName: 'auggie',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  // node-pty (optional) builds a native module for the interactive terminal; `auggie --print` runs without it.
  npmFlags: ['--omit=optional'],
  binRelative: entryRelative,
  // `auggie --version` prints "0.36.0 (commit 7c61e5bb)".
  isInstalled: (dir) => versionOf([process.execPath, join(dir, entryRelative)], () => ({}))?.split(' ')[0] === VERSION,
});
