#!/usr/bin/env node
// Installs the real Codex CLI, pinned, into .cache/codex/<version>/ for the end-to-end tests, and
// prints the path of its native binary. Safe to run twice; needs no terminal.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('codex'); // scripts/cli-versions.mjs
const PACKAGE = '@openai/codex';

// The wrapper (bin/codex.js) only finds and execs a native binary shipped in an optional
// per-platform package (an npm alias of `@openai/codex@<version>-<platform>`); the tests run that
// binary directly. Linux builds are static musl binaries, so they run on glibc too.
const TARGETS = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
};

const platform = `${process.platform}-${process.arch}`;
const target = TARGETS[platform];
if (!target) throw new Error(`Codex ships no binary for ${platform}`);
const binRelative = join('node_modules', `${PACKAGE}-${platform}`, 'vendor', target, 'bin', process.platform === 'win32' ? 'codex.exe' : 'codex');

// `codex --version` prints `codex-cli 0.171.0`; CODEX_HOME must exist.
const codexHome = (home) => {
  mkdirSync(join(home, '.codex'));
  return { CODEX_HOME: join(home, '.codex') };
};

installPinned({
  script: 'install-codex',
  cacheName: 'codex',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  npmFlags: ['--include=optional'], // the native binary lives in an optional dependency
  binRelative,
  isInstalled: (dir) => versionOf([join(dir, binRelative)], codexHome)?.split(' ').at(-1) === VERSION,
});
