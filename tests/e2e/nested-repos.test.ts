import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

const made: TempRepo[] = [];
afterEach(() => {
  for (const repo of made.splice(0)) repo.cleanup();
});

// Fails on each .js file it is given that says BROKEN.
const CHECK_JS = ['sh', '-c', 'for f; do if grep -q BROKEN "$f"; then echo "FAIL: $f is broken"; exit 1; fi; done', 'check', '{files}'];
const configWith = (gate: object) => ({ 'gate.config.json': JSON.stringify({ gates: [{ name: 'check', run: CHECK_JS, ...gate }] }), 'main.js': 'ok\n' });
const CONFIG = configWith({ on: ['**/*.js'] });

function repoWith(files: Record<string, string>, options: Parameters<typeof makeRepo>[1] = {}): TempRepo {
  const repo = makeRepo(files, options);
  made.push(repo);
  return repo;
}

const logOf = (repo: TempRepo) => join(repo.dir, '.git', 'gate', 'logs', 'check.log');

describe('changes inside a submodule or a repository inside the project', () => {
  // With "on" left at every file, the submodule's own path triggered the gate, and the second edit was "already passed".
  it.each([
    ['"on": ["**/*.js"]', { on: ['**/*.js'] }],
    ['"on" left out', {}],
  ])('every edit inside a submodule is checked, the second as much as the first, and one committed inside too (%s)', (_, gate) => {
    const lib = repoWith({ 'a.js': 'ok\n' }, { name: 'lib' });
    const repo = repoWith(configWith(gate));
    repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.dir, 'lib');
    repo.commit('add lib');
    const inside = (...args: string[]) => repo.git('-C', 'lib', ...args);

    repo.write('lib/a.js', 'ok, edited\n');
    expect(stop(repo)).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(logOf(repo))).toBe(true);

    repo.write('lib/a.js', 'BROKEN\n');
    const second = stop(repo);
    expect(second.stderr).toContain('FAIL: lib/a.js is broken');
    expect(second.code).toBe(2);

    repo.write('lib/a.js', 'ok again\n');
    expect(stop(repo).code).toBe(0);
    repo.write('lib/b.js', 'BROKEN too\n');
    inside('add', '-A');
    inside('commit', '-q', '-m', 'agent: inside the submodule');
    const committed = stop(repo);
    expect(committed.stderr).toContain('FAIL: lib/b.js is broken');
    expect(committed.code).toBe(2);
  });

  it('every edit inside an untracked repository in the project is checked', () => {
    const repo = repoWith(CONFIG);
    const tool = repoWith({ 'a.js': 'ok\n' }, { name: 'tool' });
    repo.git('clone', '-q', tool.dir, 'vendor/tool');

    expect(stop(repo)).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(logOf(repo))).toBe(true);

    repo.write('vendor/tool/a.js', 'BROKEN\n');
    const second = stop(repo);
    expect(second.stderr).toContain('FAIL: vendor/tool/a.js is broken');
    expect(second.code).toBe(2);
  });
});
