#!/usr/bin/env node
// Installs the real Qwen Code CLI, pinned, into .cache/qwen-code/<version>/ for the end-to-end
// tests, and prints the path of its entry script (run it with node). Safe to run twice; needs no
// terminal. Keep VERSION in sync with QWEN_VERSION in tests/harness/qwen/qwen-cli.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '0.24.4';
const PACKAGE = '@qwen-code/qwen-code';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const installDir = join(root, '.cache', 'qwen-code', VERSION);
const packageDir = join('node_modules', ...PACKAGE.split('/'));
const entryPath = join(installDir, packageDir, 'cli-entry.js');

// --version must not touch the real ~/.qwen.
function installedVersion(entry) {
  if (!existsSync(entry)) return null;
  const home = mkdtempSync(join(tmpdir(), 'qwen-version-'));
  try {
    const result = spawnSync(process.execPath, [entry, '--version'], {
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
  const args = [
    'install',
    '--prefix', staging,
    '--no-save', '--no-audit', '--no-fund', '--no-package-lock',
    '--engine-strict=false', // the package says node>=22; 0.24.4 runs headless on Node 20 (measured)
    '--include=optional',
    '--loglevel=error',
    `${PACKAGE}@${VERSION}`,
  ];
  const started = Date.now();
  const result = spawnSync('npm', args, { stdio: ['ignore', process.stderr, process.stderr], env: { ...process.env, CI: 'true' } });
  if (result.error) throw new Error(`could not run npm: ${result.error.message}`);
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install ${PACKAGE}@${VERSION} failed (exit ${result.status})`);
  }
  // The package ships ripgrep without its execute bit; Qwen falls back to a slower grep and warns.
  const rg = join(staging, packageDir, 'vendor', 'ripgrep', `${process.arch}-${process.platform}`, 'rg');
  if (existsSync(rg)) chmodSync(rg, 0o755);
  const stagedEntry = join(staging, packageDir, 'cli-entry.js');
  if (installedVersion(stagedEntry) !== VERSION) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm installed ${PACKAGE}@${VERSION} but ${stagedEntry} is missing or not ${VERSION}`);
  }
  rmSync(installDir, { recursive: true, force: true });
  chmodSync(staging, 0o755); // mkdtemp made it 0700
  renameSync(staging, installDir);
  process.stderr.write(`installed ${PACKAGE}@${VERSION} in ${Math.round((Date.now() - started) / 1000)} s\n`);
}

try {
  if (installedVersion(entryPath) !== VERSION) install();
  process.stdout.write(`${entryPath}\n`);
} catch (error) {
  process.stderr.write(`install-qwen: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
