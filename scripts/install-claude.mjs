#!/usr/bin/env node
// Installs the real Claude Code CLI, pinned, into .cache/claude-code/<version>/ for the
// end-to-end tests, and prints the path of its binary. Safe to run twice.
// Keep VERSION in sync with CLAUDE_CODE_VERSION in tests/claude/claude-cli.mjs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '2.1.328';
const PACKAGE = '@anthropic-ai/claude-code';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const installDir = join(root, '.cache', 'claude-code', VERSION);

// The native binary ships in an optional per-platform package; the wrapper's postinstall
// only copies it over a stub, so point at the platform package itself (works with or
// without install scripts).
function platformKey() {
  const { platform, arch } = process;
  if (platform !== 'linux') return `${platform}-${arch}`;
  const header = process.report.getReport().header;
  const glibc = 'glibcVersionRuntime' in header;
  return `linux-${arch}${glibc ? '' : '-musl'}`;
}

const binName = process.platform === 'win32' ? 'claude.exe' : 'claude';
const binRelative = join('node_modules', `${PACKAGE}-${platformKey()}`, binName);
const binPath = join(installDir, binRelative);

// --version must not touch the real ~/.claude.
function installedVersion(path) {
  if (!existsSync(path)) return null;
  const home = mkdtempSync(join(tmpdir(), 'claude-version-'));
  try {
    const result = spawnSync(path, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_CONFIG_DIR: home },
    });
    return result.status === 0 ? result.stdout.trim() : null;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function isPinned(path) {
  return installedVersion(path)?.split(' ')[0] === VERSION;
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
    '--engine-strict=false', // the package says node>=22, but its bin is native
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
  const stagedBin = join(staging, binRelative);
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
  if (!isPinned(binPath)) install();
  process.stdout.write(`${binPath}\n`);
} catch (error) {
  process.stderr.write(`install-claude: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
