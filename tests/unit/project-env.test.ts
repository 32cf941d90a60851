import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activateProjectEnv, describeOrigin } from '../../src/runner/activate-project-env.js';
import { findManagedProject } from '../../src/runner/ask-env-manager.js';
import { locateProgram } from '../../src/runner/locate-program.js';
import { findLocalEnv, projectDirs } from '../../src/runner/project-env.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gate-project-env-')));
  mkdirSync(join(root, 'repo', '.git'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const repo = (...parts: string[]) => join(root, 'repo', ...parts);

function fakeVenv(dir: string): string {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'pyvenv.cfg'), 'home = /usr/bin\n');
  return join(dir, 'bin');
}

const gate = (preset: string | undefined, env: Record<string, string> = {}) => ({ cwd: repo('pkg'), env, preset });

describe('findLocalEnv', () => {
  it('takes the nearest .venv or venv up to the repository root, and nothing above it', () => {
    mkdirSync(repo('pkg'), { recursive: true });
    fakeVenv(join(root, '.venv'));
    expect(findLocalEnv(repo('pkg'), {})).toBeUndefined();
    fakeVenv(repo('venv'));
    expect(findLocalEnv(repo('pkg'), {})).toMatchObject({ dir: repo('venv'), source: 'venv' });
    fakeVenv(repo('pkg', '.venv'));
    expect(findLocalEnv(repo('pkg'), {})).toMatchObject({ dir: repo('pkg', '.venv'), bin: repo('pkg', '.venv', 'bin'), source: '.venv' });
  });

  it('a source folder named venv (no pyvenv.cfg) is not an environment; $VIRTUAL_ENV comes first when it exists', () => {
    mkdirSync(repo('venv', 'bin'), { recursive: true });
    expect(findLocalEnv(repo(), {})).toBeUndefined();
    const active = join(root, 'elsewhere');
    expect(findLocalEnv(repo(), { VIRTUAL_ENV: active })).toBeUndefined();
    fakeVenv(active);
    fakeVenv(repo('.venv'));
    expect(findLocalEnv(repo(), { VIRTUAL_ENV: active })).toMatchObject({ dir: active, source: '$VIRTUAL_ENV' });
  });
});

describe('projectDirs', () => {
  it('outside a repository (a baseline copy): up to the home folder or the filesystem root, neither included', () => {
    const outside = join(root, 'copy', 'pkg');
    mkdirSync(outside, { recursive: true });
    expect(projectDirs(outside, root)).toEqual([outside, join(root, 'copy')]);
    expect(projectDirs(repo('pkg'), root)).toEqual([repo('pkg'), repo()]);
    expect(projectDirs(root, root)).toEqual([root]);
  });
});

describe('activateProjectEnv', () => {
  beforeEach(() => {
    mkdirSync(repo('pkg', 'node_modules', '.bin'), { recursive: true });
  });

  it('a Python gate looks in the project\'s environment before node_modules/.bin; a JS gate after; VIRTUAL_ENV is set', async () => {
    const bin = fakeVenv(repo('.venv'));
    const nodeBins = [repo('pkg', 'node_modules', '.bin'), repo('node_modules', '.bin'), join(root, 'node_modules', '.bin')];
    const python = await activateProjectEnv(gate('pytest'), 'pytest', { PATH: '/usr/bin' }, undefined);
    expect(python.env['PATH']?.split(delimiter).slice(0, 3)).toEqual([bin, ...nodeBins.slice(0, 2)]);
    expect(python.env['VIRTUAL_ENV']).toBe(repo('.venv'));
    const js = await activateProjectEnv(gate('eslint'), 'eslint', { PATH: '/usr/bin' }, undefined);
    expect(js.env['PATH']?.split(delimiter).slice(-2)).toEqual([bin, '/usr/bin']);
    expect(js.env['PATH']?.split(delimiter)[0]).toBe(nodeBins[0]);
    // A gate without a preset: by its program.
    expect((await activateProjectEnv(gate(undefined), 'mypy', { PATH: '/usr/bin' }, undefined)).env['PATH']?.split(delimiter)[0]).toBe(bin);
  });

  it('leaves a gate whose config sets PATH as it is', async () => {
    fakeVenv(repo('.venv'));
    const env = { PATH: '/opt/own' };
    const activated = await activateProjectEnv(gate('pytest', env), 'pytest', env, undefined);
    expect(activated).toEqual({ env, projectEnv: undefined, pathFromConfig: true });
    expect(describeOrigin('/opt/own/pytest', activated, repo())).toBe('from the PATH its config sets');
  });

  it('says where a program comes from', async () => {
    const bin = fakeVenv(repo('.venv'));
    const activated = await activateProjectEnv(gate('pytest'), 'pytest', { PATH: '/usr/bin' }, undefined);
    expect(describeOrigin(join(bin, 'pytest'), activated, repo())).toBe("from .venv (the project's environment)");
    expect(describeOrigin(repo('pkg', 'node_modules', '.bin', 'eslint'), activated, repo())).toBe('from node_modules/.bin');
    expect(describeOrigin('/usr/bin/pytest', activated, repo())).toBe('from PATH');
  });
});

describe('findManagedProject', () => {
  it('by the lock file, or the [tool.X] section of the nearest pyproject.toml', () => {
    mkdirSync(repo('pkg'), { recursive: true });
    expect(findManagedProject(repo('pkg'))).toBeUndefined();
    writeFileSync(repo('pyproject.toml'), '[project]\nname = "x"\n\n[tool.poetry.group.dev.dependencies]\npytest = "*"\n');
    expect(findManagedProject(repo('pkg'))).toMatchObject({ manager: 'poetry', dir: repo() });
    writeFileSync(repo('pdm.lock'), '');
    expect(findManagedProject(repo('pkg'))).toMatchObject({ manager: 'pdm' });
    // The nearest pyproject.toml decides: one without a manager means none.
    writeFileSync(repo('pkg', 'pyproject.toml'), '[project]\nname = "pkg"\n');
    expect(findManagedProject(repo('pkg'))).toBeUndefined();
    writeFileSync(repo('pkg', 'pyproject.toml'), '[tool.hatch.envs.default]\n');
    expect(findManagedProject(repo('pkg'))).toMatchObject({ manager: 'hatch', dir: repo('pkg') });
    writeFileSync(repo('pkg', 'uv.lock'), '');
    expect(findManagedProject(repo('pkg'))).toMatchObject({ manager: 'uv' });
  });
});

describe('locateProgram', () => {
  it('names the program `env VAR=value` starts (the testmon tier), found in the project\'s environment', async () => {
    const bin = fakeVenv(repo('.venv'));
    mkdirSync(repo('pkg'), { recursive: true });
    writeFileSync(join(bin, 'pytest'), '#!/bin/sh\n', { mode: 0o755 });
    const used = await locateProgram(gate('pytest'), { argv: ['env', 'TESTMON_DATAFILE=x', 'pytest', '-q', '--testmon'], shell: false }, { PATH: '/usr/bin:/bin' }, repo(), undefined);
    expect(used).toMatchObject({ name: 'pytest', path: join(bin, 'pytest'), from: "from .venv (the project's environment)" });
  });
});
