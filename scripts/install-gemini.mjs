#!/usr/bin/env node
// Installs the real Gemini CLI, pinned, into .cache/gemini-cli/<version>/ for the end-to-end tests,
// and prints the path of its entry script (run it with node). Safe to run twice; needs no terminal.
// Keep VERSION in sync with GEMINI_VERSION in tests/harness/gemini/gemini-cli.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '0.61.0';
const PACKAGE = '@google/gemini-cli';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const installDir = join(root, '.cache', 'gemini-cli', VERSION);
const entryRelative = join('node_modules', ...PACKAGE.split('/'), 'bundle', 'gemini.js');
const entryPath = join(installDir, entryRelative);

/** The version the installed package says it is (cheap: the check on every test run). */
function packageVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', ...PACKAGE.split('/'), 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

// What the CLI itself reports (after an install). --version must not touch the real ~/.gemini;
// GEMINI_CLI_NO_RELAUNCH keeps it to one process.
function installedVersion(entry) {
  if (!existsSync(entry)) return null;
  const home = mkdtempSync(join(tmpdir(), 'gemini-version-'));
  try {
    const result = spawnSync(process.execPath, [entry, '--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: home, GEMINI_CLI_NO_RELAUNCH: 'true' },
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
    // The CLI is one bundle (engines: node>=20); its optional deps are node-pty and keytar, which
    // only the interactive terminal and keychain logins use.
    '--omit=optional',
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
  const stagedEntry = join(staging, entryRelative);
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
  if (packageVersion(installDir) !== VERSION || !existsSync(entryPath)) install();
  process.stdout.write(`${entryPath}\n`);
} catch (error) {
  process.stderr.write(`install-gemini: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
