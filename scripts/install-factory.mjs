#!/usr/bin/env node
// Installs the real Factory Droid CLI, pinned, into .cache/factory-droid/<version>/ for the
// end-to-end tests, and prints the path of its native binary. Safe to run twice; needs no terminal.
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('factory'); // scripts/cli-versions.mjs

// The wrapper `@factory/cli` downloads its binary in a postinstall (and has no 0.225.2), so the
// per-platform package that carries the binary is installed directly.
function platformPackage() {
  const platform = `${process.platform}-${process.arch}`;
  if (!['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'].includes(platform)) throw new Error(`Factory ships no droid binary for ${platform}`);
  return `@factory/cli-${platform}`;
}
const PACKAGE = platformPackage();
const binRelative = join('node_modules', ...PACKAGE.split('/'), 'bin', 'droid');

installPinned({
  script: 'install-factory',
  cacheName: 'factory-droid',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  npmFlags: [],
  binRelative,
  // The package ships the binary without its execute bit.
  prepare: (dir) => {
    if (existsSync(join(dir, binRelative))) chmodSync(join(dir, binRelative), 0o755);
  },
  isInstalled: (dir) => versionOf([join(dir, binRelative)], () => ({})) === VERSION,
});
