// The shared half of scripts/install-<cli>.mjs: install one pinned npm package into
// .cache/<name>/<version>/ beside the target and rename it into place (an interrupted install never
// looks complete), check it, and print the path the tests run. Each script says what differs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * @param {object} cli
 * @param {string} cli.script      the script's name, for messages
 * @param {string} cli.cacheName   folder under .cache/
 * @param {string} cli.version
 * @param {string} cli.spec        what npm installs, like "@openai/codex@0.171.0"
 * @param {string[]} cli.npmFlags  flags beyond the common ones
 * @param {string} cli.binRelative the path to print, relative to the install folder
 * @param {(dir: string) => boolean} cli.isInstalled  whether a folder holds the pinned version
 * @param {(dir: string) => void} [cli.prepare]       fix-ups on the staged folder before the check
 * @returns {string | undefined} the path printed, or undefined when the install failed
 */
export function installPinned(cli) {
  const installDir = join(root, '.cache', cli.cacheName, cli.version);
  try {
    if (!cli.isInstalled(installDir)) install(cli, installDir);
    const bin = join(installDir, cli.binRelative);
    process.stdout.write(`${bin}\n`);
    return bin;
  } catch (error) {
    process.stderr.write(`${cli.script}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    return undefined;
  }
}

function install(cli, installDir) {
  const parent = dirname(installDir);
  mkdirSync(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    if (name.startsWith(`${cli.version}.partial-`)) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const staging = mkdtempSync(`${installDir}.partial-`);
  const args = ['install', '--prefix', staging, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', ...cli.npmFlags, cli.spec];
  const started = Date.now();
  const result = spawnSync('npm', args, { stdio: ['ignore', process.stderr, process.stderr], env: { ...process.env, CI: 'true' } });
  if (result.error) throw new Error(`could not run npm: ${result.error.message}`);
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install ${cli.spec} failed (exit ${result.status})`);
  }
  cli.prepare?.(staging);
  if (!cli.isInstalled(staging)) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm installed ${cli.spec} but ${join(staging, cli.binRelative)} is missing or not ${cli.version}`);
  }
  rmSync(installDir, { recursive: true, force: true });
  chmodSync(staging, 0o755); // mkdtemp made it 0700
  renameSync(staging, installDir);
  process.stderr.write(`installed ${cli.spec} in ${Math.round((Date.now() - started) / 1000)} s\n`);
}

/**
 * What `argv --version` prints (argv ends with the file to run: a binary, or node and a script), run with a throwaway HOME (envFor gets it) so that no real
 * ~/.claude, ~/.codex … is touched; null when it fails or the file is missing.
 */
export function versionOf(argv, envFor, timeoutMs = 60_000) {
  if (!existsSync(argv.at(-1) ?? '')) return null;
  const home = mkdtempSync(join(tmpdir(), 'cli-version-'));
  try {
    const [command, ...args] = argv;
    const result = spawnSync(command, [...args, '--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      env: { PATH: process.env.PATH ?? '', HOME: home, ...envFor(home) },
    });
    return result.status === 0 ? result.stdout.trim() : null;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
