// A baseline copy that cannot be made says so (issue 42, point 6): a tree naming a file that is not in
// the object store (a partial clone, a damaged repository), and a turn start too large to write.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolvedGate } from '../../src/config/load-config.js';
import { findRepo } from '../../src/git/find-repo.js';
import { baselineFailures } from '../../src/verdict/baseline-failures.js';
import { captureStart } from '../../src/verdict/capture-start.js';
import { makeSnapshot } from '../../src/snapshot/snapshot.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo | undefined;
let state: string | undefined;
afterEach(() => {
  repo?.cleanup();
  if (state) rmSync(state, { recursive: true, force: true });
});

function gate(dir: string): ResolvedGate {
  return { name: 'test', shortName: 'test', configDir: dir, preset: undefined, run: ['node', '-e', 'process.exit(1)'], shell: false, on: ['**/*'], ignore: [], timeoutSeconds: 30, filter: 'generic', tier: undefined, fastOff: false, cwd: dir, env: {}, retries: 0 };
}

describe('a baseline that cannot be copied', () => {
  it('a tree with a blob missing from the object store: the answer says the copy could not be made, and places no failure', async () => {
    repo = makeRepo({ 'app.js': 'x\n' });
    state = mkdtempSync(join(tmpdir(), 'gate-state-'));
    const missing = '6da560b7ecd83c0384b11cf84ae3a54eb61b9734';
    const tree = execFileSync('git', ['mktree', '--missing'], { cwd: repo.dir, env: repo.env, input: `100644 blob ${missing}\tapi-docs.gif\n`, encoding: 'utf8' }).trim();
    const saved = { ...process.env };
    Object.assign(process.env, repo.env);
    try {
      const answer = await baselineFailures({ root: repo.dir, stateDir: state, tree, key: 'k', gate: gate(repo.dir), env: { ...process.env }, ids: ['output:1'], failures: [] });
      expect(answer.failing).toBeUndefined();
      expect(answer.doubt).toMatch(/^the copy of the baseline could not be made \(.*6da560b7ecd83c0384b11cf84ae3a54eb61b9734.*\)$/);
    } finally {
      process.env = saved;
    }
  });

  it('a turn start with more changed files than gate writes: the start says why it has no tree', async () => {
    repo = makeRepo({ 'app.js': 'x\n' });
    state = mkdtempSync(join(tmpdir(), 'gate-state-'));
    const found = findRepo(repo.dir);
    if (!found) throw new Error('no repo');
    const head = repo.git('rev-parse', 'HEAD').trim();
    const files = Object.fromEntries(Array.from({ length: 2001 }, (_, index) => [`gen/${index}.js`, `h${index}`]));
    const start = await captureStart(found, state, makeSnapshot(head, files), [repo.dir], {}, { dir: repo.dir, hash: 'h' } as never);
    expect(start.tree).toBeUndefined();
    expect(start.unwritten).toBe('2001 changed files at its start, more than 2000 to write');
  });
});
