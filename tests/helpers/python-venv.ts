import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './temp-repo.js';

const TOOLS = join(PROJECT_ROOT, '.cache', 'tools');
const TOOLS_PYTHON = join(TOOLS, 'py', 'bin', 'python');
const WHEELS = join(TOOLS, 'wheels');

/** Whether scripts/install-tools.mjs left what makeVenv needs (its venv's pip and the wheels). */
export function canMakeVenvs(): boolean {
  return process.platform !== 'win32' && existsSync(TOOLS_PYTHON) && existsSync(join(WHEELS, 'setuptools-84.0.0-py3-none-any.whl'));
}

/**
 * A real venv at `<dir>/.venv` with pytest, and the project in `dir` installed into it the way a
 * developer does (`pip install -e .`: setuptools' editable install), offline from the wheels that
 * scripts/install-tools.mjs downloads. Returns the venv's bin folder, to put first on PATH.
 */
export function makeEditableVenv(dir: string): string {
  const venv = join(dir, '.venv');
  makeVenv(venv, ['pytest==9.1.1', 'setuptools==84.0.0']);
  venvPip(venv, dir, '--no-build-isolation', '--no-deps', '--editable', dir);
  return join(venv, 'bin');
}

/** A real venv at `venv` with `packages` installed offline from the tools' wheels (none: a bare venv, made in about a second). */
export function makeVenv(venv: string, packages: string[]): string {
  execFileSync('python3', ['-m', 'venv', '--without-pip', venv], { stdio: 'pipe' });
  if (packages.length > 0) venvPip(venv, venv, '--find-links', WHEELS, ...packages);
  return join(venv, 'bin');
}

/** `pip install ARGS` into `venv`, offline, with the tools' pip (the venvs here are made without one). */
export function venvPip(venv: string, cwd: string, ...args: string[]): void {
  execFileSync(TOOLS_PYTHON, ['-m', 'pip', '--python', join(venv, 'bin', 'python'), 'install', '--quiet', '--no-index', '--disable-pip-version-check', ...args], { cwd, stdio: 'pipe', env: { ...process.env, PIP_CONFIG_FILE: '/dev/null' } });
}
