// Projects that are not Node packages, and every way gate is installed (issue 28): each hint gate
// prints names the command that runs this gate here, and init keeps an installed node_modules/ out of git.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookPayload, GATE_BIN } from '../helpers/run-bin.js';
import { makeRepo, PROJECT_ROOT, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const PYTHON_PROJECT = {
  'pyproject.toml': '[project]\nname = "app"\nversion = "0.1.0"\n',
  'app.py': 'def main():\n    return 1\n',
  '.gitignore': '__pycache__/\n',
};

/** Runs `gate ARGS` through /bin/sh, as a person types it, with `binDir` first on PATH. */
function typed(command: string, binDir: string, input = '') {
  return spawnSync('/bin/sh', ['-c', command], { cwd: repo.dir, env: { ...repo.env, PATH: `${binDir}:${repo.env['PATH']}` }, input, encoding: 'utf8' });
}

/** A global npm install: a `gate` link on PATH into the installed package's bin/gate.cjs. */
function globalInstall(): string {
  const bin = join(repo.home, 'global', 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(GATE_BIN, join(bin, 'gate'));
  return bin;
}

/** stopgate in the project's node_modules, as a package manager leaves it. */
function localInstall(): string {
  mkdirSync(join(repo.dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(PROJECT_ROOT, join(repo.dir, 'node_modules', 'stopgate'));
  symlinkSync(join(PROJECT_ROOT, 'bin', 'gate.cjs'), join(repo.dir, 'node_modules', '.bin', 'gate'));
  return join(repo.dir, 'node_modules', '.bin');
}

const INVALID_CONFIG = { 'gate.config.json': '{ "gates": [ { "name": "test" } ] }' };

describe('hints name the command that runs this gate', () => {
  it('a global install says `gate doctor`, never `npx gate` (npx would fetch an unrelated package named gate)', () => {
    repo = makeRepo({ ...PYTHON_PROJECT, ...INVALID_CONFIG });
    const bin = globalInstall();
    repo.write('app.py', 'def main():\n    return 2\n');
    const stop = typed('gate run', bin, hookPayload('Stop', 's1', repo.dir));
    expect(stop.status).toBe(0);
    expect(JSON.parse(stop.stdout).systemMessage).toMatch(/Fix it, then run "gate check"\.$/);
    const verdict = typed('gate verdict', bin);
    expect(verdict.stdout).toMatch(/the config is invalid, so the stop was let through unchecked \("gate doctor" says where\)/);
    const doctor = typed('gate doctor', bin);
    expect(doctor.stdout).toMatch(/not installed: .* run "gate init"/);
    expect(`${stop.stdout}${verdict.stdout}${doctor.stdout}`).not.toMatch(/npx gate/);
  });

  it('a local install says the project\'s manager: `npx gate` with npm, `pnpm exec gate` with pnpm', () => {
    repo = makeRepo({ ...PYTHON_PROJECT, ...INVALID_CONFIG, 'package.json': '{ "devDependencies": { "stopgate": "0.1.0" } }\n' });
    const bin = localInstall();
    repo.write('app.py', 'def main():\n    return 2\n');
    expect(JSON.parse(typed('gate run', bin, hookPayload('Stop', 's1', repo.dir)).stdout).systemMessage).toMatch(/Fix it, then run "npx gate check"\.$/);
    repo.write('pnpm-lock.yaml', "lockfileVersion: '9.0'\n");
    expect(JSON.parse(typed('gate run', bin, hookPayload('Stop', 's2', repo.dir)).stdout).systemMessage).toMatch(/Fix it, then run "pnpm exec gate check"\.$/);
  });
});

describe('gate init in a Python project', () => {
  it('with stopgate in a node_modules/ and a .venv/ git does not ignore, adds both to .gitignore and says so (issue 42)', () => {
    repo = makeRepo({ ...PYTHON_PROJECT, 'package.json': '{ "devDependencies": { "stopgate": "0.1.0" } }\n' });
    const bin = localInstall();
    repo.write('.venv/pyvenv.cfg', 'home = /usr/bin\n');
    repo.write('.venv/lib/python3.12/site-packages/pkg/__init__.py', '\n');
    const result = typed('gate init --yes --no-check', bin);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Note: node_modules\/ \(where stopgate is installed\) is not ignored by git: \.gitignore gets the line node_modules\/\./);
    expect(result.stdout).toMatch(/Note: \.venv\/ is an environment \(installed packages, caches\) that git does not ignore: gate never counts it as the project's source, and \.gitignore gets the line \.venv\/\./);
    expect(readFileSync(join(repo.dir, '.gitignore'), 'utf8')).toBe('__pycache__/\nnode_modules/\n.venv/\n');
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).not.toMatch(/\.venv/);
    expect(result.stdout).toMatch(/Teammates need `npm install`/);
    expect(result.stdout).toMatch(/Run `npx gate check --all` to see the gates pass now, and `npx gate doctor`/);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).not.toMatch(/node_modules/);
  });

  it('with a global install, writes `gate run` into the hook, touches no .gitignore, and says `gate doctor`', () => {
    repo = makeRepo(PYTHON_PROJECT);
    const bin = globalInstall();
    const result = typed('gate init --yes --no-check', bin);
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(join(repo.dir, '.claude', 'settings.json'), 'utf8')).hooks.Stop[0].hooks[0].command).toBe('gate run');
    expect(readFileSync(join(repo.dir, '.gitignore'), 'utf8')).toBe('__pycache__/\n');
    expect(result.stdout).toMatch(/Everyone who uses this repo needs `npm i -g stopgate`/);
    expect(result.stdout).toMatch(/Run `gate check --all` to see the gates pass now, and `gate doctor`/);
    expect(result.stdout).not.toMatch(/npx gate/);
  });
});
