import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRepo, operationInProgress, stateDirOf } from '../../src/git/find-repo.js';
import { committedPaths } from '../../src/snapshot/committed-paths.js';
import { changedPaths, headSnapshot } from '../../src/snapshot/snapshot.js';
import { takeSnapshot as take } from '../../src/snapshot/take-snapshot.js';

const takeSnapshot = async (repo: Parameters<typeof take>[0]) => (await take(repo)).snapshot;
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

// takeSnapshot spawns git with the process environment; point it at the hermetic config.
function withRepoEnv<T>(fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, repo.env);
  return fn().finally(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });
}

async function changedSince(base: Awaited<ReturnType<typeof takeSnapshot>>) {
  const found = findRepo(repo.dir);
  if (!found) throw new Error('no repo');
  const now = await takeSnapshot(found);
  const committed = base.head === now.head ? [] : await committedPaths(found, base.head, now.head);
  return changedPaths(base, now, committed).paths;
}

describe('change detection in a real repository', () => {
  it("takes a vitest typecheck's leftover tsconfig.vitest-temp.json for no change (a killed run leaves it); a tracked one counts", async () => {
    repo = makeRepo({ 'tsconfig.json': '{}\n', 'tests/tsconfig.json': '{}\n', 'src/a.ts': 'a' });
    await withRepoEnv(async () => {
      const found = findRepo(repo.dir);
      if (!found) throw new Error('no repo');
      const base = headSnapshot((await takeSnapshot(found)).head);
      repo.write('tsconfig.vitest-temp.json', '{"extends":"./tsconfig.json"}\n');
      repo.write('tests/tsconfig.vitest-temp.json', '{"extends":"./tsconfig.json"}\n');
      repo.write('src/a.ts', 'edited');
      expect(await changedSince(base)).toEqual(['src/a.ts']);
      repo.git('add', 'tests/tsconfig.vitest-temp.json');
      expect(await changedSince(base)).toEqual(['src/a.ts', 'tests/tsconfig.vitest-temp.json']);
    });
  });

  it('takes an unignored environment for no change, whatever .gitignore says: a virtualenv, a tagged cache, bytecode, egg-info; a tracked file there counts (issue 42)', async () => {
    repo = makeRepo({ '.gitignore': 'venv/\n', 'app/main.py': 'x = 1\n', 'fixtures/env/pyvenv.cfg': 'home = /usr\n', 'fixtures/env/lib/site.py': 'a\n' });
    await withRepoEnv(async () => {
      const found = findRepo(repo.dir);
      if (!found) throw new Error('no repo');
      const base = headSnapshot((await takeSnapshot(found)).head);
      repo.write('.venv/pyvenv.cfg', 'home = /usr/bin\n');
      repo.write('.venv/lib/python3.11/site-packages/pkg/__init__.py', 'x\n');
      repo.write('.venv/bin/activate', 'x\n');
      repo.write('tools/env2/pyvenv.cfg', 'home = /usr/bin\n');
      repo.write('tools/env2/lib/mod.py', 'x\n');
      repo.write('conda/conda-meta/history', 'x\n');
      repo.write('conda/lib/libz.so', 'x\n');
      repo.write('target/CACHEDIR.TAG', 'Signature: 8a477f597d28d172789f06886806bc55\n');
      repo.write('target/debug/app', 'x\n');
      repo.write('app/__pycache__/main.cpython-311.pyc', 'x\n');
      repo.write('app.egg-info/PKG-INFO', 'x\n');
      repo.write('.tox/py311/lib/x.py', 'x\n');
      repo.write('app/main.py', 'x = 2\n');
      repo.write('app/templates/page.html', '<p>\n');
      expect(await changedSince(base)).toEqual(['app/main.py', 'app/templates/page.html']);
      // A committed venv of a test fixture is the project's own: its edit counts.
      repo.write('fixtures/env/lib/site.py', 'b\n');
      expect(await changedSince(base)).toEqual(['app/main.py', 'app/templates/page.html', 'fixtures/env/lib/site.py']);
    });
  });

  it('sees tracked edits, staged changes, deletions, renames and untracked files, never ignored ones', async () => {
    repo = makeRepo({ '.gitignore': 'build/\n*.log\n', 'a.ts': 'a', 'b.ts': 'b', 'c.ts': 'c', 'd.ts': 'd', 'e.ts': 'e' });
    await withRepoEnv(async () => {
      const found = findRepo(repo.dir);
      if (!found) throw new Error('no repo');
      const base = headSnapshot((await takeSnapshot(found)).head);
      repo.write('a.ts', 'edited');
      repo.write('b.ts', 'staged');
      repo.git('add', 'b.ts');
      repo.remove('c.ts');
      repo.git('mv', 'd.ts', 'renamed d.ts');
      repo.write('new dir/untracked.ts', 'new');
      repo.write('build/out.js', 'ignored');
      repo.write('debug.log', 'ignored');
      expect(await changedSince(base)).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'new dir/untracked.ts', 'renamed d.ts']);
    });
  });

  it('compares content: an edit to an already dirty file counts, a rewrite with the same bytes does not', async () => {
    repo = makeRepo({ 'a.ts': 'a' });
    await withRepoEnv(async () => {
      const found = findRepo(repo.dir);
      if (!found) throw new Error('no repo');
      repo.write('a.ts', 'dirty before the turn');
      const turnStart = await takeSnapshot(found);
      repo.write('a.ts', 'dirty before the turn');
      expect(await changedSince(turnStart)).toEqual([]);
      repo.write('a.ts', 'edited during the turn');
      expect(await changedSince(turnStart)).toEqual(['a.ts']);
    });
  });

  it('still sees a change the agent committed', async () => {
    repo = makeRepo({ 'a.ts': 'a', 'b.ts': 'b' });
    await withRepoEnv(async () => {
      const found = findRepo(repo.dir);
      if (!found) throw new Error('no repo');
      const turnStart = await takeSnapshot(found);
      repo.write('a.ts', 'broken');
      repo.commit('agent commit');
      expect(await changedSince(turnStart)).toEqual(['a.ts']);
    });
  });

  it('works in a repository without commits', async () => {
    repo = makeRepo({ 'a.ts': 'a' }, { commit: false });
    await withRepoEnv(async () => {
      const found = findRepo(repo.dir);
      if (!found) throw new Error('no repo');
      const now = await takeSnapshot(found);
      expect(now.head).toBeNull();
      expect(changedPaths(headSnapshot(null), now, []).paths).toEqual(['a.ts']);
      repo.commit('first');
      expect(await changedSince(headSnapshot(null))).toEqual(['a.ts']);
    });
  });

  it('keeps state inside the git dir of a linked worktree, where git-path puts it', async () => {
    repo = makeRepo({ 'a.ts': 'a' });
    const tree = join(repo.dir, '..', 'tree two');
    repo.git('worktree', 'add', '-q', '-b', 'second', tree);
    const found = findRepo(join(tree));
    expect(found?.root).toBe(tree);
    const gitPath = repo.git('-C', tree, 'rev-parse', '--path-format=absolute', '--git-path', 'gate').trim();
    expect(stateDirOf(found!)).toBe(gitPath);
  });

  it('finds the repository from a subdirectory and notices a merge in progress', () => {
    repo = makeRepo({ 'pkg/src/a.ts': 'a' });
    const found = findRepo(join(repo.dir, 'pkg', 'src'));
    expect(found?.root).toBe(repo.dir);
    expect(operationInProgress(found!)).toBeUndefined();
    mkdirSync(join(found!.gitDir, 'rebase-merge'));
    expect(operationInProgress(found!)).toBe('rebase');
    writeFileSync(join(found!.gitDir, 'MERGE_HEAD'), 'x');
    expect(operationInProgress(found!)).toBe('merge');
  });
});
