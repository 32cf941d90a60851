import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { vitestProject } from '../helpers/fixtures.js';
import { goneWithin, isRunning, onLinux } from '../helpers/processes.js';
import { GATE_BIN, hookPayload, runBin } from '../helpers/run-bin.js';
import { runAsync } from '../helpers/run-async.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo | undefined;
afterEach(() => {
  const pidFile = repo && join(dirname(repo.dir), 'left.pid');
  const pid = pidFile && existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
  if (pid > 0) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone: what the test wants.
    }
  }
  repo?.cleanup();
  repo = undefined;
});

/** A repo whose one gate is `run`, with a change for it to check. The pid file lies outside the work tree. */
function project(run: string[], extra: object = {}): { repo: TempRepo; pidFile: string } {
  const made = makeRepo(vitestProject({ gates: [{ name: 'test', run, ...extra }] }));
  made.write('src/sum.ts', 'export const changed = true;\n');
  repo = made;
  return { repo: made, pidFile: join(dirname(made.dir), 'left.pid') };
}

function stopOf(r: TempRepo) {
  // Bounded well below vitest's own limit: before the fix this stop waited as long as the child ran.
  return runBin(['run'], { cwd: r.dir, env: { ...r.env, CLAUDE_PROJECT_DIR: r.dir }, input: hookPayload('Stop', 's', r.dir), timeoutMs: 40_000 });
}

function leftPid(pidFile: string): number {
  return Number(readFileSync(pidFile, 'utf8'));
}

async function until(condition: () => boolean, deadlineMs: number): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  return true;
}

describe('a gate that leaves a detached child holding its output', () => {
  // The gate runs in the work tree; its child's pid goes to a file beside it, outside the tree.
  it.each([
    // It waits until the child has its own session: before that, killing the gate's group would take it too.
    // Each is red only with the turn's edit of src/sum.ts: the copy of the start passes (and leaves no
    // child), so the failure is the turn's — the same output there would allow the stop (issue 37).
    ['setsid', ['sh', '-c', "grep -q 'changed = true' src/sum.ts || exit 0; setsid sh -c 'echo $$ > ../left.pid; exec sleep 600' & until [ -s ../left.pid ]; do sleep 0.05; done; echo boom; exit 1"]],
    ["node's spawn with detached: true", ['node', '-e', "if (!require('fs').readFileSync('src/sum.ts', 'utf8').includes('changed = true')) process.exit(0); const c = require('child_process').spawn('sleep', ['600'], { detached: true, stdio: 'inherit' }); require('fs').writeFileSync('../left.pid', String(c.pid)); console.log('boom'); process.exit(1);"]],
  ])('%s: the stop is blocked on its exit status, with its output, within the timeout; the child is killed and named', async (_name, run) => {
    const { repo: r, pidFile } = project(run, { timeout: 5 });
    const result = stopOf(r);
    const pid = leftPid(pidFile);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/boom/);
    if (onLinux) {
      expect(await goneWithin(pid)).toBe(true);
      // The human's notice names it.
      expect(result.stdout).toMatch(new RegExp(`test left running: sleep \\(pid ${pid}\\), killed`));
    }
  }, 60_000);
});

describe('a gate run killed with SIGTERM (a harness on its own timeout)', () => {
  it.skipIf(!onLinux)('also kills the child that left the gate\'s process group holding its output', async () => {
    const made = project(['sh', '-c', "setsid sh -c 'echo $$ > ../left.pid; exec sleep 600' & sleep 600"], { timeout: 60 });
    let gatePid = 0;
    const run = runAsync(process.execPath, [GATE_BIN, 'run'], { cwd: made.repo.dir, env: { ...made.repo.env, CLAUDE_PROJECT_DIR: made.repo.dir }, input: hookPayload('Stop', 's', made.repo.dir) }, (pid) => {
      gatePid = pid;
    });
    expect(await until(() => existsSync(made.pidFile) && readFileSync(made.pidFile, 'utf8').trim() !== '', 20_000)).toBe(true);
    const child = leftPid(made.pidFile);
    process.kill(gatePid, 'SIGTERM');
    await run;
    expect(await goneWithin(child, 5_000)).toBe(true);
  }, 60_000);
});

describe('a gate run killed with SIGKILL', () => {
  it.skipIf(!existsSync('/usr/bin/timeout') && !existsSync('/bin/timeout'))('does not leave its gate running past the gate timeout', async () => {
    const made = project(['sh', '-c', 'echo $$ > ../left.pid; exec sleep 600'], { timeout: 2 });
    const pidFile = made.pidFile;
    let gatePid = 0;
    const run = runAsync(process.execPath, [GATE_BIN, 'run'], { cwd: made.repo.dir, env: { ...made.repo.env, CLAUDE_PROJECT_DIR: made.repo.dir }, input: hookPayload('Stop', 's', made.repo.dir) }, (pid) => {
      gatePid = pid;
    });
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 20_000)).toBe(true);
    const command = leftPid(pidFile);
    process.kill(gatePid, 'SIGKILL');
    await run;
    expect(isRunning(command)).toBe(true);
    // The gate's timeout (2 s) and the kill grace after it, with room for a loaded machine.
    expect(await goneWithin(command, 15_000)).toBe(true);
  }, 60_000);
});

describe('exit 127 and a missing cwd', () => {
  it('an npm script that runs a missing program fails (npm exits 127): the stop is blocked with npm’s output', () => {
    const made = makeRepo({ ...vitestProject({ gates: [{ name: 'test', run: ['npm', 'test'] }] }), 'package.json': JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'node -e 0' } }) });
    repo = made;
    made.write('package.json', JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'definitely-missing-tool-xyz --run' } }));
    const result = stopOf(made);
    expect(result.stderr).toMatch(/definitely-missing-tool-xyz: not found/);
    expect(result.code).toBe(2);
  }, 60_000);

  it('a gate whose cwd does not exist gives no verdict, and the notice names the cwd', () => {
    const { repo: r } = project(['node', '-e', 'process.exit(1)'], { cwd: 'packages/gone' });
    const result = stopOf(r);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/could not start: its cwd \S*packages\/gone does not exist/);
  });

  it('a gate whose own program is missing still could not start', () => {
    const { repo: r } = project(['definitely-missing-tool-xyz', '--run']);
    const result = stopOf(r);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/could not start: \\"definitely-missing-tool-xyz\\" was not found/);
  });
});
