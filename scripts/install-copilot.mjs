#!/usr/bin/env node
// Installs the real GitHub Copilot CLI, pinned, into .cache/copilot/<version>/ for the end-to-end
// tests, unpacks its runtime once into .cache/copilot/<version>/xdg-cache/ (the tests point
// XDG_CACHE_HOME there), and prints the path of its native binary. Safe to run twice; needs no
// terminal.
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('copilot'); // scripts/cli-versions.mjs
const PACKAGE = '@github/copilot';

// The wrapper's npm-loader.js only execs the native binary of the optional per-platform package;
// the tests run that binary directly.
function platformKey() {
  const { platform, arch } = process;
  if (platform !== 'linux') return `${platform}-${arch}`;
  const glibc = 'glibcVersionRuntime' in process.report.getReport().header;
  return `linux${glibc ? '' : 'musl'}-${arch}`;
}
const binRelative = join('node_modules', '@github', `copilot-${platformKey()}`, process.platform === 'win32' ? 'copilot.exe' : 'copilot');

// On its first run the binary unpacks ≈235 MB of runtime into $XDG_CACHE_HOME/copilot/pkg/: the
// check points that at <install>/xdg-cache, which the tests use too. It prints
// "GitHub Copilot CLI 1.0.102." and then an update hint.
function isInstalled(dir) {
  const env = (home) => ({ COPILOT_HOME: join(home, '.copilot'), XDG_CACHE_HOME: join(dir, 'xdg-cache'), COPILOT_AUTO_UPDATE: 'false' });
  const output = versionOf([join(dir, binRelative)], env, 120_000);
  return output !== null && /Copilot CLI (\S+?)\.?$/m.exec(output)?.[1] === VERSION;
}

installPinned({
  script: 'install-copilot',
  cacheName: 'copilot',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  npmFlags: ['--include=optional'], // the native binary lives in an optional dependency
  binRelative,
  isInstalled,
});
