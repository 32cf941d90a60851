#!/usr/bin/env node
// Installs the real Qwen Code CLI, pinned, into .cache/qwen-code/<version>/ for the end-to-end
// tests, and prints the path of its entry script (run it with node). Safe to run twice; needs no
// terminal.
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('qwen'); // scripts/cli-versions.mjs
const PACKAGE = '@qwen-code/qwen-code';
const packageDir = join('node_modules', ...PACKAGE.split('/'));
const entryRelative = join(packageDir, 'cli-entry.js');

installPinned({
  script: 'install-qwen',
  cacheName: 'qwen-code',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  npmFlags: [
    '--engine-strict=false', // the package says node>=22; 0.24.4 runs headless on Node 20 (measured)
    '--include=optional',
  ],
  binRelative: entryRelative,
  // The package ships ripgrep without its execute bit; Qwen falls back to a slower grep and warns.
  prepare: (dir) => {
    const rg = join(dir, packageDir, 'vendor', 'ripgrep', `${process.arch}-${process.platform}`, 'rg');
    if (existsSync(rg)) chmodSync(rg, 0o755);
  },
  isInstalled: (dir) => versionOf([process.execPath, join(dir, entryRelative)], () => ({})) === VERSION,
});
