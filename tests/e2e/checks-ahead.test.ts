import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// The gates that only read the tree (type checkers, linters) run after the agent's edits settle,
// while it goes on: a stop on exactly that tree takes their results as its own; any other tree runs them.

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

const lastStop = (r: TempRepo) => readStopRecords(join(r.dir, '.git', 'gate')).at(-1);
const gateOf = (r: TempRepo, name: string) => lastStop(r)?.gates.find((gate) => gate.name === name);
const pidFile = (r: TempRepo) => join(r.dir, '.git', 'gate', 'ahead', 'session-1.pid');
const GOOD = 'export const sum = (a: number, b: number): number => a + b;\n';

/** A tsc gate (read-only preset) and a test gate whose every run leaves a mark (never run ahead). */
function project(): TempRepo {
  const made = makeRepo(
    {
      'gate.config.json': `${JSON.stringify({ gates: [{ name: 'typecheck', preset: 'tsc' }, { name: 'test', run: ['sh', '-c', 'echo ran >> .test-runs'], on: ['src/**'] }] })}\n`,
      'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022'], types: [], skipLibCheck: true }, include: ['src'] })}\n`,
      '.gitignore': 'node_modules\n.test-runs\n',
      'src/sum.ts': GOOD,
    },
    // Each entry of node_modules a link of its own (not the folder): the environment test replaces one.
    { nodeModules: 'with-gate' },
  );
  made.env['GATE_AHEAD'] = '1';
  made.env['GATE_AHEAD_SETTLE_MS'] = '0';
  return made;
}

/** Claude Code's PostToolUse after a Write, as init installs it. */
function edited(r: TempRepo, path: string, content: string, env: Record<string, string> = {}): void {
  r.write(path, content);
  const payload = JSON.stringify({ session_id: 'session-1', cwd: r.dir, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(r.dir, path), content } });
  expect(runBin(['run'], { cwd: r.dir, env: { ...r.env, ...env, CLAUDE_PROJECT_DIR: r.dir }, input: payload }).code).toBe(0);
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('checks ahead of the stop', () => {
  it('a pass on the tree the stop finds is its run of the gate; the test gate never runs ahead', async () => {
    repo = project();
    expect(promptStart(repo).code).toBe(0);
    edited(repo, 'src/sum.ts', 'export const sum = (a: number, b: number): number => b + a;\n');
    const r = repo;
    await until(() => !existsSync(pidFile(r)), 30_000);
    expect(existsSync(join(repo.dir, '.test-runs'))).toBe(false);
    expect(stop(repo).code).toBe(0);
    expect(gateOf(repo, 'typecheck')).toMatchObject({ status: 'passed', ahead: true });
    expect(gateOf(repo, 'test')).toMatchObject({ status: 'passed' });
    expect(gateOf(repo, 'test')?.ahead).toBeUndefined();
    expect(readFileSync(join(repo.dir, '.test-runs'), 'utf8')).toBe('ran\n');
  }, 60_000);

  it('a tree changed after the check (an edit with no hook) runs the gate at the stop, and blocks on its error', async () => {
    repo = project();
    expect(promptStart(repo).code).toBe(0);
    edited(repo, 'src/sum.ts', 'export const sum = (a: number, b: number): number => b + a;\n');
    const r = repo;
    await until(() => !existsSync(pidFile(r)), 30_000);
    repo.write('src/sum.ts', 'export const sum = (a: number, b: number): number => `${a}${b}`;\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain("Type 'string' is not assignable to type 'number'");
    expect(gateOf(repo, 'typecheck')?.status).toBe('failed');
    expect(gateOf(repo, 'typecheck')?.ahead).toBeUndefined();
  }, 60_000);

  it('a failure on the tree the stop finds is reported as the stop ran it', async () => {
    repo = project();
    expect(promptStart(repo).code).toBe(0);
    edited(repo, 'src/sum.ts', 'export const sum = (a: number, b: number): number => `${a}${b}`;\n');
    const r = repo;
    await until(() => !existsSync(pidFile(r)), 30_000);
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain("src/sum.ts(1,54): error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(gateOf(repo, 'typecheck')).toMatchObject({ status: 'failed', ahead: true });
  }, 60_000);

  it('the environment changed since the check: the stop runs the gate itself', async () => {
    repo = project();
    expect(promptStart(repo).code).toBe(0);
    edited(repo, 'src/sum.ts', 'export const sum = (a: number, b: number): number => b + a;\n');
    const r = repo;
    await until(() => !existsSync(pidFile(r)), 30_000);
    // npm's install record in node_modules changes (an `npm install` in a shell): another environment.
    // (The repo's node_modules entries link to this checkout's: the link goes, a file of its own comes.)
    expect(lstatSync(join(repo.dir, 'node_modules')).isSymbolicLink()).toBe(false);
    repo.remove('node_modules/.package-lock.json');
    repo.write('node_modules/.package-lock.json', '{ "lockfileVersion": 3, "packages": {} }\n');
    expect(stop(repo).code).toBe(0);
    expect(gateOf(repo, 'typecheck')?.status).toBe('passed');
    expect(gateOf(repo, 'typecheck')?.ahead).toBeUndefined();
  }, 60_000);

  it('a burst of edits: each ends the check the one before started; the stop ends the last and runs the gate itself', async () => {
    repo = project();
    expect(promptStart(repo).code).toBe(0);
    const ahead = (pid: number) => existsSync(`/proc/${pid}/cmdline`) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('ahead');
    edited(repo, 'src/sum.ts', 'export const sum = (a: number, b: number): number => b - a;\n', { GATE_AHEAD_SETTLE_MS: '60000' });
    const first = Number(readFileSync(pidFile(repo), 'utf8'));
    expect(ahead(first)).toBe(true);
    edited(repo, 'src/sum.ts', 'export const sum = (a: number, b: number): number => b + a;\n', { GATE_AHEAD_SETTLE_MS: '60000' });
    const pid = Number(readFileSync(pidFile(repo), 'utf8'));
    expect(pid).not.toBe(first);
    await until(() => !ahead(first), 5_000);
    expect(stop(repo).code).toBe(0);
    expect(gateOf(repo, 'typecheck')?.status).toBe('passed');
    expect(gateOf(repo, 'typecheck')?.ahead).toBeUndefined();
    expect(existsSync(pidFile(repo))).toBe(false);
    expect(ahead(pid)).toBe(false);
  }, 60_000);
});
