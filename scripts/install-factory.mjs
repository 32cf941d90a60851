#!/usr/bin/env node
// Installs the real Factory Droid CLI, pinned, into .cache/factory-droid/<version>/ for the
// end-to-end tests, and prints the path of its native binary. Safe to run twice; needs no terminal.
// Keep VERSION in sync with FACTORY_VERSION in tests/harness/factory/droid-cli.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '0.225.2';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const installDir = join(root, '.cache', 'factory-droid', VERSION);

// The wrapper `@factory/cli` downloads its binary in a postinstall (and has no 0.225.2), so the
// per-platform package that carries the binary is installed directly.
function platformPackage() {
  const platform = `${process.platform}-${process.arch}`;
  if (!['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'].includes(platform)) throw new Error(`Factory ships no droid binary for ${platform}`);
  return `@factory/cli-${platform}`;
}
const PACKAGE = platformPackage();
const binPath = join(installDir, 'node_modules', ...PACKAGE.split('/'), 'bin', 'droid');

// --version must not touch the real ~/.factory.
function installedVersion(path) {
  if (!existsSync(path)) return null;
  const home = mkdtempSync(join(tmpdir(), 'droid-version-'));
  try {
    const result = spawnSync(path, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: home },
    });
    return result.status === 0 ? result.stdout.trim() : null;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
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
  const args = ['install', '--prefix', staging, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `${PACKAGE}@${VERSION}`];
  const started = Date.now();
  const result = spawnSync('npm', args, { stdio: ['ignore', process.stderr, process.stderr], env: { ...process.env, CI: 'true' } });
  if (result.error) throw new Error(`could not run npm: ${result.error.message}`);
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install ${PACKAGE}@${VERSION} failed (exit ${result.status})`);
  }
  const stagedBin = join(staging, 'node_modules', ...PACKAGE.split('/'), 'bin', 'droid');
  if (existsSync(stagedBin)) chmodSync(stagedBin, 0o755);
  if (installedVersion(stagedBin) !== VERSION) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm installed ${PACKAGE}@${VERSION} but ${stagedBin} is missing or not ${VERSION}`);
  }
  rmSync(installDir, { recursive: true, force: true });
  chmodSync(staging, 0o755); // mkdtemp made it 0700
  renameSync(staging, installDir);
  process.stderr.write(`installed ${PACKAGE}@${VERSION} in ${Math.round((Date.now() - started) / 1000)} s\n`);
}

try {
  if (installedVersion(binPath) !== VERSION) install();
  process.stdout.write(`${binPath}\n`);
} catch (error) {
  process.stderr.write(`install-factory: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
