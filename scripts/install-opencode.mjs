#!/usr/bin/env node
// Installs the real OpenCode CLI, pinned, into .cache/opencode/<version>/ for the end-to-end tests,
// and prints the path of its native binary. Safe to run twice; needs no terminal.
// Keep VERSION in sync with OPENCODE_VERSION in tests/harness/opencode/opencode-cli.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '1.18.33';
const PACKAGE = 'opencode-ai';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const installDir = join(root, '.cache', 'opencode', VERSION);

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
const binPath = join(installDir, binRelative);

/** The version the installed platform package says it is (cheap: the check on every test run). */
function packageVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', platformPackage(), 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

// What the binary itself reports (after an install); --version must not touch the real ~/.config.
function installedVersion(path) {
  if (!existsSync(path)) return null;
  const home = mkdtempSync(join(tmpdir(), 'opencode-version-'));
  try {
    const result = spawnSync(path, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local', 'state') },
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
    '--include=optional', // the binary lives in an optional dependency
    '--ignore-scripts', // the postinstall only links the binary over the wrapper's stub
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
  const stagedBin = join(staging, binRelative);
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
  if (packageVersion(installDir) !== VERSION || !existsSync(binPath)) install();
  process.stdout.write(`${binPath}\n`);
} catch (error) {
  process.stderr.write(`install-opencode: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
