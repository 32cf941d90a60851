#!/usr/bin/env node
// Installs the real OpenCode CLI, pinned, into .cache/opencode/<version>/ for the end-to-end tests,
// and prints the path of its native binary. Safe to run twice; needs no terminal.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('opencode'); // scripts/cli-versions.mjs
const PACKAGE = 'opencode-ai';

// The binary (a Bun executable, so Node's version does not matter) ships in an optional
// per-platform package; the wrapper's postinstall only links it. Point at the platform package.
function platformPackage() {
  const { platform, arch } = process;
  const os = platform === 'win32' ? 'windows' : platform;
  if (platform !== 'linux') return `opencode-${os}-${arch}`;
  const glibc = 'glibcVersionRuntime' in process.report.getReport().header;
  return `opencode-linux-${arch}${glibc ? '' : '-musl'}`;
}

const binRelative = join('node_modules', platformPackage(), 'bin', process.platform === 'win32' ? 'opencode.exe' : 'opencode');

/** The version the installed platform package says it is (cheap: the check on every test run). */
function packageVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', platformPackage(), 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

// Its --version must not touch the real ~/.config.
const xdgHome = (home) => ({ XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local', 'state') });

installPinned({
  script: 'install-opencode',
  cacheName: 'opencode',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  npmFlags: [
    '--include=optional', // the binary lives in an optional dependency
    '--ignore-scripts', // the postinstall only links the binary over the wrapper's stub
  ],
  binRelative,
  // After an install, the binary itself must say it is the pinned version.
  prepare: (dir) => {
    const said = versionOf([join(dir, binRelative)], xdgHome);
    if (said !== VERSION) throw new Error(`the installed opencode says ${said ?? 'nothing'} for --version, not ${VERSION}`);
  },
  isInstalled: (dir) => packageVersion(dir) === VERSION && existsSync(join(dir, binRelative)),
});
