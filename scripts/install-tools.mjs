#!/usr/bin/env node
// Installs the real tools the Python, Go and Rust presets run, for the integration tests and
// `npm run bench:projects` (tests/helpers/tools.ts puts them on PATH):
//   - a Python venv in .cache/tools/py with pinned mypy, ruff, pytest, black, flake8 and isort (python3 -m venv, its pip),
//     and in .cache/tools/wheels the wheels of pytest and setuptools for the tests' own venvs;
//   - Go: Debian's golang-go through apt-get when `go` is missing and we are root;
//   - cargo and clippy: only checked (rustup installs them; nothing here does);
//   - basedpyright and TypeScript 7 from npm, each in its own folder under .cache/tools.
// Safe to run twice; when everything is there it spawns nothing but `go version` and two
// `cargo … --version`. Prints one line per tool. A tool it cannot provide is a warning locally
// (the tests that need it are skipped) and an error under CI=true (CI never silently skips).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const windows = process.platform === 'win32';
const venv = join(root, '.cache', 'tools', 'py');
const venvBin = join(venv, windows ? 'Scripts' : 'bin');
const stampFile = join(venv, 'gate-tools.json');

// The tools and everything they pull in, pinned: the same venv on every machine and every run.
const PYTHON_PINS = [
  'mypy==2.4.0',
  'ruff==0.16.9',
  'pytest==9.1.1',
  'ast-serialize==0.11.2',
  'iniconfig==2.3.0',
  'librt==0.16.0',
  'mypy-extensions==1.1.0',
  'packaging==26.3',
  'pathspec==1.1.1',
  'pluggy==1.6.0',
  'pygments==2.21.0',
  'typing-extensions==4.16.0',
  'black==26.5.1',
  'click==8.5.0',
  'platformdirs==4.12.2',
  'pytokens==0.4.1',
  'flake8==7.4.1',
  'pyflakes==4.0.0',
  'pycodestyle==2.15.0',
  'mccabe==0.7.0',
  'isort==9.0.2',
];
const PYTHON_TOOLS = ['mypy', 'ruff', 'pytest', 'black', 'flake8', 'isort'];
// Wheels for the tests' own venvs (an editable install of a test project, pip --no-index from here).
const WHEEL_PINS = ['pytest==9.1.1', 'iniconfig==2.3.0', 'packaging==26.3', 'pluggy==1.6.0', 'pygments==2.21.0', 'setuptools==84.0.0'];
const wheels = join(root, '.cache', 'tools', 'wheels');

const missing = [];
const lines = [];

function run(command, args, options = {}) {
  return spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

function exe(dir, name) {
  return join(dir, windows ? `${name}.exe` : name);
}

function which(name, extraDirs = []) {
  const dirs = [...extraDirs, ...(process.env.PATH ?? '').split(delimiter)].filter(Boolean);
  return dirs.map((dir) => exe(dir, name)).find((file) => existsSync(file));
}

function note(tool, version, where) {
  lines.push(`${tool.padEnd(7)} ${version.padEnd(44)} ${where}`);
}

function lack(tool, advice) {
  missing.push(tool);
  lines.push(`${tool.padEnd(7)} ${'MISSING'.padEnd(44)} ${advice}`);
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return null;
  }
}

function venvIsCurrent() {
  const stamp = readStamp();
  const pinsMatch = stamp !== null && JSON.stringify(stamp.pins) === JSON.stringify(PYTHON_PINS) && JSON.stringify(stamp.wheels) === JSON.stringify(WHEEL_PINS);
  // existsSync follows the venv's python symlink: a removed base interpreter makes it stale.
  return pinsMatch && [exe(venvBin, 'python'), ...PYTHON_TOOLS.map((tool) => exe(venvBin, tool))].every((file) => existsSync(file));
}

function installVenv() {
  const python = which(windows ? 'python' : 'python3');
  if (!python) return 'python3 not found: install Python 3 with its venv module (Debian: apt-get install python3-venv)';
  process.stderr.write(`install-tools: creating ${relative(root, venv)} (mypy, ruff, pytest, black, flake8, isort)…\n`);
  const started = Date.now();
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  const made = run(python, ['-m', 'venv', venv]);
  if (made.status !== 0) return `${python} -m venv failed: ${(made.stderr || made.stdout).trim()} (Debian: apt-get install python3-venv)`;
  // One retry, not pip's five: an unreachable default index then costs seconds, not minutes.
  const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_RETRIES: process.env.PIP_RETRIES ?? '1' };
  const pip = run(exe(venvBin, 'python'), ['-m', 'pip', 'install', '--quiet', ...PYTHON_PINS], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  if (pip.status !== 0) {
    rmSync(venv, { recursive: true, force: true });
    return `pip install ${PYTHON_PINS.slice(0, 3).join(' ')} failed (exit ${pip.status}); see pip's output above`;
  }
  rmSync(wheels, { recursive: true, force: true });
  const download = run(exe(venvBin, 'python'), ['-m', 'pip', 'download', '--quiet', '--no-deps', '--dest', wheels, ...WHEEL_PINS], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  if (download.status !== 0) {
    rmSync(venv, { recursive: true, force: true });
    return `pip download ${WHEEL_PINS.join(' ')} failed (exit ${download.status}); see pip's output above`;
  }
  const versions = {};
  for (const tool of PYTHON_TOOLS) {
    const result = run(exe(venvBin, tool), ['--version']);
    if (result.status !== 0) return `${tool} was installed but \`${tool} --version\` failed: ${result.stderr.trim()}`;
    versions[tool] = /\d+\.\d+\.\d+/.exec(result.stdout)?.[0] ?? result.stdout.trim();
  }
  writeFileSync(stampFile, `${JSON.stringify({ pins: PYTHON_PINS, wheels: WHEEL_PINS, versions }, null, 2)}\n`); // written last: a half-made venv is redone
  process.stderr.write(`install-tools: venv ready in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return null;
}

function python() {
  const problem = venvIsCurrent() ? null : installVenv();
  if (problem) {
    for (const tool of PYTHON_TOOLS) lack(tool, problem);
    return;
  }
  const { versions } = readStamp();
  for (const tool of PYTHON_TOOLS) note(tool, versions[tool], relative(root, exe(venvBin, tool)));
}

const GO_DIRS = ['/usr/lib/go/bin', '/usr/local/go/bin'];

function installGo() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = which('apt-get');
  if (process.platform !== 'linux' || !aptGet) return 'go not found: install Go with your package manager and put it on PATH';
  if (!isRoot) return 'go not found and not root: run `sudo apt-get install golang-go`, then this script again';
  process.stderr.write('install-tools: installing golang-go with apt-get…\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = run(aptGet, ['update', '-q'], { env, stdio: ['ignore', process.stderr, process.stderr] });
  if (update.status !== 0) return `apt-get update failed (exit ${update.status})`;
  const install = run(aptGet, ['install', '-y', '-q', 'golang-go'], { env, stdio: ['ignore', process.stderr, process.stderr] });
  if (install.status !== 0) return `apt-get install golang-go failed (exit ${install.status})`;
  return null;
}

function go() {
  let problem = null;
  if (!which('go', GO_DIRS)) problem = installGo();
  const bin = which('go', GO_DIRS);
  const version = bin ? run(bin, ['version']) : null;
  if (problem || !bin || version?.status !== 0) {
    lack('go', problem ?? `${bin ?? 'go'} version failed: ${version?.stderr.trim() ?? 'not found after install'}`);
    return;
  }
  note('go', version.stdout.trim().replace(/^go version /, ''), bin);
}

function rust() {
  const cargoHome = process.env.CARGO_HOME ?? join(homedir(), '.cargo');
  const cargo = which('cargo', [join(cargoHome, 'bin')]);
  if (!cargo) {
    lack('cargo', 'not found: install Rust with rustup (the cargo and clippy it installs are used as they are)');
    lack('clippy', 'not found: install Rust with rustup, then `rustup component add clippy`');
    return;
  }
  const version = run(cargo, ['--version']);
  if (version.status === 0) note('cargo', version.stdout.trim().replace(/^cargo /, ''), cargo);
  else lack('cargo', `${cargo} --version failed: ${version.stderr.trim().split('\n')[0]}`);
  const clippy = run(cargo, ['clippy', '--version']);
  if (clippy.status === 0) note('clippy', clippy.stdout.trim().replace(/^clippy /, ''), `${cargo} clippy`);
  else lack('clippy', `\`cargo clippy --version\` failed: run \`rustup component add clippy\``);
}

// basedpyright ships on npm only (its PyPI package needs a Node wheel the index may lack). Not a
// devDependency: its package also claims the `pyright` bin, which would shadow the real pyright's.
// Installed apart, with only `basedpyright` linked into .cache/tools/npm-bin (tests/helpers/tools.ts).
const BASEDPYRIGHT = '1.40.1';

function basedpyright() {
  const prefix = join(root, '.cache', 'tools', 'basedpyright');
  const entry = join(prefix, 'node_modules', 'basedpyright', 'index.js');
  const link = join(root, '.cache', 'tools', 'npm-bin', windows ? 'basedpyright.cmd' : 'basedpyright');
  const installed = () => {
    try {
      return JSON.parse(readFileSync(join(prefix, 'node_modules', 'basedpyright', 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  if (installed() !== BASEDPYRIGHT) {
    mkdirSync(prefix, { recursive: true });
    const npm = run(windows ? 'npm.cmd' : 'npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `basedpyright@${BASEDPYRIGHT}`], { shell: windows });
    if (npm.status !== 0 || installed() !== BASEDPYRIGHT) return lack('basedpyright', `npm install basedpyright@${BASEDPYRIGHT} failed: ${(npm.stderr || '').trim().split('\n').at(-1)}`);
  }
  if (!existsSync(link)) {
    mkdirSync(dirname(link), { recursive: true });
    writeFileSync(link, windows ? `@node "${entry}" %*\r\n` : `#!/bin/sh\nexec node "${entry}" "$@"\n`, { mode: 0o755 });
  }
  note('basedpyright', BASEDPYRIGHT, relative(root, link));
}

// TypeScript 7 (the native compiler), for the tests that prove the tsc preset on it beside the 5.x
// devDependency. Not a devDependency: its package claims the same `tsc` bin. Installed apart, as a
// user's project installs it (its per-platform binary package comes as an optional dependency), and
// linked nowhere: the tests give a project .cache/tools/typescript7/node_modules as its own.
const TYPESCRIPT_7 = '7.0.2';

function typescript7() {
  const prefix = join(root, '.cache', 'tools', 'typescript7');
  const installed = () => {
    try {
      return JSON.parse(readFileSync(join(prefix, 'node_modules', 'typescript', 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  if (installed() !== TYPESCRIPT_7) {
    mkdirSync(prefix, { recursive: true });
    const npm = run(windows ? 'npm.cmd' : 'npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `typescript@${TYPESCRIPT_7}`], { shell: windows });
    if (npm.status !== 0 || installed() !== TYPESCRIPT_7) return lack('tsc 7', `npm install typescript@${TYPESCRIPT_7} failed: ${(npm.stderr || '').trim().split('\n').at(-1)}`);
  }
  note('tsc 7', TYPESCRIPT_7, relative(root, join(prefix, 'node_modules', '.bin', 'tsc')));
}

python();
basedpyright();
typescript7();
go();
rust();
process.stdout.write(`${lines.join('\n')}\n`);
if (missing.length > 0) {
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  process.stderr.write(`install-tools: missing ${missing.join(', ')}; ${ci ? 'CI=true, so this is an error' : 'the tests that need them are skipped'}\n`);
  if (ci) process.exitCode = 1;
}
