#!/usr/bin/env node
// Installs the real Qoder CLI, pinned, into .cache/qodercli/<version>/ for the end-to-end tests, and
// prints the path of its entry script (run it with node). Safe to run twice; needs no terminal.
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('qoder'); // scripts/cli-versions.mjs
const PACKAGE = '@qoder-ai/qodercli';
const entryRelative = join('node_modules', ...PACKAGE.split('/'), 'bundle', 'qodercli.js');

installPinned({
  script: 'install-qoder',
  cacheName: 'qodercli',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  // Its postinstall writes a launcher into the real ~/.qoder (configure-path); the tests run the bundle with node.
  npmFlags: ['--ignore-scripts'],
  binRelative: entryRelative,
  isInstalled: (dir) => versionOf([process.execPath, join(dir, entryRelative)], () => ({})) === VERSION,
});
