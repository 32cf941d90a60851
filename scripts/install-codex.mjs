#!/usr/bin/env node
// Installs the real Codex CLI, pinned, into .cache/codex/<version>/ for the end-to-end tests, and
// prints the path of its native binary. Safe to run twice; needs no terminal.
// Keep VERSION in sync with CODEX_VERSION in tests/harness/codex/codex-cli.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '0.171.0';
const PACKAGE = '@openai/codex';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const installDir = join(root, '.cache', 'codex', VERSION);

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

function binRelative() {
  const platform = `${process.platform}-${process.arch}`;
  const target = TARGETS[platform];
  if (!target) throw new Error(`Codex ships no binary for ${platform}`);
  const name = process.platform === 'win32' ? 'codex.exe' : 'codex';
  return join('node_modules', `${PACKAGE}-${platform}`, 'vendor', target, 'bin', name);
}

// --version must not touch the real ~/.codex.
function installedVersion(path) {
  if (!existsSync(path)) return null;
  const home = mkdtempSync(join(tmpdir(), 'codex-version-'));
  try {
    mkdirSync(join(home, '.codex'));
    const result = spawnSync(path, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: join(home, '.codex') },
    });
    return result.status === 0 ? result.stdout.trim() : null;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** `codex --version` prints `codex-cli 0.171.0`. */
function isPinned(path) {
  return installedVersion(path)?.split(' ').at(-1) === VERSION;
}

function removeStaleStaging() {
  const parent = dirname(installDir);
  for (const name of readdirSync(parent)) {
    if (name.startsWith(`${VERSION}.partial-`)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

function install() {
  mkdirSync(dirname(installDir), { recursive: true });
  removeStaleStaging();
  // Install beside the target and rename, so an interrupted install never looks complete.
  const staging = mkdtempSync(`${installDir}.partial-`);
  const args = [
    'install',
    '--prefix', staging,
    '--no-save', '--no-audit', '--no-fund', '--no-package-lock',
    '--include=optional', // the native binary lives in an optional dependency
    '--loglevel=error',
    `${PACKAGE}@${VERSION}`,
  ];
  const started = Date.now();
  const result = spawnSync('npm', args, {
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, CI: 'true' },
  });
  if (result.error) throw new Error(`could not run npm: ${result.error.message}`);
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install ${PACKAGE}@${VERSION} failed (exit ${result.status})`);
  }
  const stagedBin = join(staging, binRelative());
  if (!isPinned(stagedBin)) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm installed ${PACKAGE}@${VERSION} but ${stagedBin} is missing or not ${VERSION}`);
  }
  rmSync(installDir, { recursive: true, force: true });
  chmodSync(staging, 0o755); // mkdtemp made it 0700
  renameSync(staging, installDir);
  process.stderr.write(`installed ${PACKAGE}@${VERSION} in ${Math.round((Date.now() - started) / 1000)} s\n`);
}

try {
  const binPath = join(installDir, binRelative());
  if (!isPinned(binPath)) install();
  process.stdout.write(`${binPath}\n`);
} catch (error) {
  process.stderr.write(`install-codex: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
