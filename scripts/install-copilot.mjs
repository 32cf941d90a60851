#!/usr/bin/env node
// Installs the real GitHub Copilot CLI, pinned, into .cache/copilot/<version>/ for the end-to-end
// tests, unpacks its runtime once into .cache/copilot/<version>/xdg-cache/ (the tests point
// XDG_CACHE_HOME there), and prints the path of its native binary. Safe to run twice; needs no
// terminal. Keep VERSION in sync with COPILOT_VERSION in tests/harness/copilot/copilot-cli.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '1.0.102';
const PACKAGE = '@github/copilot';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const installDir = join(root, '.cache', 'copilot', VERSION);

// The wrapper's npm-loader.js only execs the native binary of the optional per-platform package;
// the tests run that binary directly.
function platformKey() {
  const { platform, arch } = process;
  if (platform !== 'linux') return `${platform}-${arch}`;
  const glibc = 'glibcVersionRuntime' in process.report.getReport().header;
  return `linux${glibc ? '' : 'musl'}-${arch}`;
}
const binRelative = join('node_modules', '@github', `copilot-${platformKey()}`, process.platform === 'win32' ? 'copilot.exe' : 'copilot');
const binPath = join(installDir, binRelative);

/**
 * `--version` in a throwaway HOME (never the real ~/.copilot). On its first run the binary unpacks
 * ≈235 MB of runtime into $XDG_CACHE_HOME/copilot/pkg/; `xdgCache` keeps that for the tests.
 */
function installedVersion(path, xdgCache) {
  if (!existsSync(path)) return null;
  const home = mkdtempSync(join(tmpdir(), 'copilot-version-'));
  try {
    const result = spawnSync(path, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', HOME: home, COPILOT_HOME: join(home, '.copilot'), XDG_CACHE_HOME: xdgCache ?? join(home, '.cache'), COPILOT_AUTO_UPDATE: 'false' },
    });
    // "GitHub Copilot CLI 1.0.102." then an update hint
    return result.status === 0 ? (/Copilot CLI (\S+?)\.?$/m.exec(result.stdout)?.[1] ?? null) : null;
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
    '--include=optional', // the native binary lives in an optional dependency
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
  if (installedVersion(stagedBin, join(staging, 'xdg-cache')) !== VERSION) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm installed ${PACKAGE}@${VERSION} but ${stagedBin} is missing or not ${VERSION}`);
  }
  rmSync(installDir, { recursive: true, force: true });
  chmodSync(staging, 0o755); // mkdtemp made it 0700
  renameSync(staging, installDir);
  process.stderr.write(`installed ${PACKAGE}@${VERSION} in ${Math.round((Date.now() - started) / 1000)} s\n`);
}

try {
  const xdgCache = join(installDir, 'xdg-cache');
  if (installedVersion(binPath, xdgCache) !== VERSION) install();
  process.stdout.write(`${binPath}\n`);
} catch (error) {
  process.stderr.write(`install-copilot: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
