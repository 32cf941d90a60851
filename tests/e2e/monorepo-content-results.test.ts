import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import type { TempRepo } from '../helpers/temp-repo.js';
import { breakShared, pnpmWorkspace, touchLeaf } from '../helpers/workspace-fixtures.js';

// A dependent's pass is kept on the content of it and of what it depends on (src/state/content-results.ts).
let repo: TempRepo;
afterEach(() => repo?.cleanup());

const read = (r: TempRepo, path: string) => readFileSync(join(r.dir, path), 'utf8');
const lastGates = (r: TempRepo) => readStopRecords(join(r.dir, '.git', 'gate')).at(-1)?.gates ?? [];
const ran = (r: TempRepo) =>
  lastGates(r)
    .filter((gate) => gate.status !== 'cached')
    .map((gate) => gate.name)
    .sort();
const DEPENDENTS = ['apps/admin:test', 'apps/api:test', 'apps/web:test', 'packages/utils:test'];
const appendComment = (r: TempRepo, path: string) => r.write(path, `${read(r, path)}\n// a comment\n`);

describe('a dependent that passed is not run again while nothing it depends on changed', () => {
  it('a later stop after a leaf change runs the leaf only, and says why the dependents were not re-run', () => {
    repo = pnpmWorkspace({ gateConfigs: true });
    promptStart(repo);
    appendComment(repo, 'packages/shared/src/index.js');
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ran(repo)).toEqual([...DEPENDENTS, 'packages/shared:test'].sort());

    const leaf = touchLeaf(repo);
    const status = runBin(['status'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_CODE_SESSION_ID: 'session-1' } });
    expect(status.stdout).toMatch(/skip apps\/web:test: it depends on @acme\/shared, which changed \(the full run\), but it passed on this content at .* UTC: not re-run/);
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ran(repo)).toEqual([`${leaf}:test`]);
    const web = lastGates(repo).find((gate) => gate.name === 'apps/web:test');
    expect(web).toMatchObject({ status: 'cached' });
    expect(web?.reason).toMatch(/^passed on this content at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: not re-run$/);
  });

  it('runs a dependent again once a file of a package it depends on changes, and only those dependents', () => {
    repo = pnpmWorkspace({ gateConfigs: true });
    promptStart(repo);
    appendComment(repo, 'packages/shared/src/index.js');
    expect(stop(repo)).toMatchObject({ code: 0 });
    // utils changes: web and admin depend on it, api does not.
    appendComment(repo, 'packages/utils/src/index.js');
    expect(stop(repo)).toMatchObject({ code: 0 });
    expect(ran(repo)).toEqual(['apps/admin:test', 'apps/web:test', 'packages/utils:test']);
  });

  it('never skips a dependent that failed', () => {
    repo = pnpmWorkspace({ gateConfigs: true });
    promptStart(repo);
    const broken = breakShared(repo);
    expect(stop(repo).code).toBe(2);
    touchLeaf(repo);
    const again = stop(repo);
    expect(again.code).toBe(2);
    expect(ran(repo)).toContain(broken.gate);
    // It ran again and failed the same way: the agent is reminded of the report it has (issue 29 point 4).
    expect(again.stderr).toContain(`- ${broken.gate}: ${broken.file} > ${broken.test}, line ${broken.line}`);
  });
});
