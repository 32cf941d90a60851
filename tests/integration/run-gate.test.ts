import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedGate } from '../../src/config/load-config.js';
import { runGate } from '../../src/runner/run-gate.js';
import { runGates } from '../../src/runner/run-gates.js';
import { goneWithin, isRunning, onLinux } from '../helpers/processes.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function gate(run: string | string[], extra: Partial<ResolvedGate> = {}): ResolvedGate {
  return { name: 'g', shortName: 'g', configDir: dir, preset: undefined, run, shell: false, on: ['**/*'], ignore: [], timeoutSeconds: 30, filter: 'generic', tier: undefined, fastOff: false, cwd: dir, env: {}, retries: 0, ...extra };
}

function killIfRunning(pidFile: string): void {
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  } catch {
    // Gone already, or never started.
  }
}

function run(g: ResolvedGate, files: string[] = []) {
  return runGate({ gate: g, files, projectDir: dir, logPath: join(dir, 'logs', `${g.name}.log`), cacheDir: join(dir, 'cache', g.name), env: { PATH: process.env['PATH'] ?? '' } });
}

describe('runGate', () => {
  it('classifies passed and failed, and captures stdout and stderr interleaved in order', async () => {
    expect((await run(gate(['node', '-e', 'process.exit(0)']))).status).toBe('passed');
    const failed = await run(gate(['node', '-e', 'console.log("out 1"); console.error("err 2"); process.exit(3)']));
    expect(failed).toMatchObject({ status: 'failed', exitCode: 3 });
    expect(failed.output).toBe('out 1\nerr 2\n');
    expect(readFileSync(failed.logPath, 'utf8')).toBe('out 1\nerr 2\n');
  });

  it('says a missing program could not start, with or without a shell', async () => {
    const missing = await run(gate(['definitely-not-a-program-xyz']));
    expect(missing.status).toBe('not-started');
    expect(missing.detail).toMatch(/definitely-not-a-program-xyz" was not found/);
    expect((await run(gate('definitely-not-a-program-xyz --flag', { shell: true }))).status).toBe('not-started');
  });

  it('fails a program that ran and exited 127; only its own missing program could not start', async () => {
    const ran = await run(gate(['sh', '-c', 'echo "sh: 1: vitest: not found" >&2; exit 127']));
    expect(ran).toMatchObject({ status: 'failed', exitCode: 127, output: 'sh: 1: vitest: not found\n' });
    // Through a shell: sh exits 127 alike when the first word or a later command is missing.
    const first = await run(gate('definitely-not-a-program-xyz --flag && echo never', { shell: true }));
    expect(first).toMatchObject({ status: 'not-started', detail: expect.stringMatching(/^"definitely-not-a-program-xyz" was not found/) });
    expect(await run(gate('cd . && definitely-not-a-program-xyz', { shell: true }))).toMatchObject({ status: 'failed', exitCode: 127 });
    expect(await run(gate('echo definitely-not-a-program-xyz: not found; exit 127', { shell: true }))).toMatchObject({ status: 'failed', exitCode: 127 });
  });

  it('says a missing cwd is missing, with or without a shell', async () => {
    const gone = join(dir, 'packages', 'gone');
    for (const g of [gate(['node', '-e', '0'], { cwd: gone }), gate('node -e 0', { cwd: gone, shell: true })]) {
      expect(await run(g)).toMatchObject({ status: 'not-started', detail: `its cwd ${gone} does not exist` });
    }
  });

  it('settles on the exit status when a detached child keeps the output open, and kills that child', async () => {
    const pidFile = join(dir, 'detached.pid');
    const script = `setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 300' & until [ -s '${pidFile}' ]; do sleep 0.05; done; echo boom; exit 1`;
    try {
      const result = await run(gate(['sh', '-c', script], { timeoutSeconds: 20 }));
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(result).toMatchObject({ status: 'failed', exitCode: 1, output: 'boom\n' });
      if (onLinux) expect(await goneWithin(pid)).toBe(true);
      else expect(isRunning(pid)).toBe(true);
      if (onLinux) expect(result).toMatchObject({ leftRunning: `sleep (pid ${pid})`, detail: `left running: sleep (pid ${pid}), killed` });
    } finally {
      killIfRunning(pidFile);
    }
  });

  it('at the timeout too, a detached child holding the output does not hold the result up', async () => {
    const pidFile = join(dir, 'detached.pid');
    try {
      const result = await run(gate(['sh', '-c', `setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 300' & sleep 300`], { timeoutSeconds: 1 }));
      expect(result.status).toBe('timed-out');
      const pid = Number(readFileSync(pidFile, 'utf8'));
      if (onLinux) expect(await goneWithin(pid)).toBe(true);
      else expect(isRunning(pid)).toBe(true);
    } finally {
      killIfRunning(pidFile);
    }
  });

  it('kills the whole process group at the timeout: the grandchild is gone too', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const script = `sleep 300 & echo $! > '${pidFile}'; wait`;
    const started = Date.now();
    const result = await run(gate(['sh', '-c', script], { timeoutSeconds: 1 }));
    expect(result.status).toBe('timed-out');
    expect(Date.now() - started).toBeLessThan(10_000);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(await goneWithin(grandchild)).toBe(true);
  });

  it('leaves nothing running after a command that exits while its child still runs', async () => {
    const pidFile = join(dir, 'left.pid');
    const result = await run(gate(['sh', '-c', `sleep 300 & echo $! > '${pidFile}'; exit 1`]));
    expect(result.status).toBe('failed');
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  it('bounds what it keeps of a huge output, in memory and in the log', async () => {
    const result = await run(gate(['node', '-e', 'const l="x".repeat(1023)+"\\n"; for (let i=0;i<100*1024;i++) process.stdout.write(l); console.log("THE END")']));
    expect(result.status).toBe('passed');
    expect(result.output.length).toBeLessThan(2.5 * 1024 * 1024);
    expect(result.output).toMatch(/bytes of output omitted here/);
    expect(result.output.endsWith('THE END\n')).toBe(true);
    expect(statSync(result.logPath).size).toBeLessThan(17 * 1024 * 1024);
  });

  it('never hands a run string to a shell unless asked', async () => {
    writeFileSync(join(dir, 'print.js'), 'console.log(JSON.stringify(process.argv.slice(2)))');
    const result = await run(gate('node print.js "a b" ; echo $HOME > pwned'));
    expect(result.output.trim()).toBe(JSON.stringify(['a b', ';', 'echo', '$HOME', '>', 'pwned']));
    const shelled = await run(gate('echo "$GREETING" from sh', { shell: true, env: { GREETING: 'hello' } }));
    expect(shelled.output).toBe('hello from sh\n');
  });

  it('expands {files} to the changed files that still exist, and skips when none does', async () => {
    writeFileSync(join(dir, 'a.ts'), '');
    writeFileSync(join(dir, 'print.js'), 'console.log(process.argv.slice(2).join(","))');
    expect((await run(gate(['node', 'print.js', '{files}']), ['a.ts', 'gone.ts'])).output).toBe('a.ts\n');
    expect((await run(gate(['node', 'print.js', '{files}']), ['gone.ts'])).status).toBe('skipped');
  });
});

describe('runGates', () => {
  it('runs gates side by side: each waits until all three have started', async () => {
    // A barrier, not a stopwatch: run one after another, the first gate would never see the others.
    const barrier = `const fs = require('fs'); fs.writeFileSync(process.argv[1] + '.started', '');
      const deadline = Date.now() + 10000;
      const poll = () => ['one', 'two', 'three'].every((n) => fs.existsSync(n + '.started')) ? process.exit(0)
        : Date.now() > deadline ? process.exit(1) : setTimeout(poll, 20);
      poll();`;
    const gateNamed = (name: string) => ({ gate: gate(['node', '-e', barrier, name], { name }), run: true, reason: '', files: [], partial: false });
    const results = await runGates({
      selections: [gateNamed('one'), gateNamed('two'), gateNamed('three')],
      concurrency: 3,
      projectDir: dir,
      logDir: join(dir, 'logs'),
      cacheDir: join(dir, 'cache'),
      env: { PATH: process.env['PATH'] ?? '' },
    });
    expect(results.map((r) => [r.name, r.status])).toEqual([['one', 'passed'], ['two', 'passed'], ['three', 'passed']]);
  });

  it('keeps to the concurrency cap', async () => {
    const counter = `const fs = require('fs'); const path = 'running';
      const add = (d) => { const n = (fs.existsSync(path) ? Number(fs.readFileSync(path, 'utf8')) : 0) + d; fs.writeFileSync(path, String(n)); return n; };
      const now = add(1); fs.appendFileSync('peaks', now + '\\n'); setTimeout(() => { add(-1); }, 300);`;
    const selections = ['a', 'b', 'c', 'd'].map((name) => ({ gate: gate(['node', '-e', counter], { name }), run: true, reason: '', files: [], partial: false }));
    await runGates({ selections, concurrency: 1, projectDir: dir, logDir: join(dir, 'logs'), cacheDir: join(dir, 'cache'), env: { PATH: process.env['PATH'] ?? '' } });
    expect(readFileSync(join(dir, 'peaks'), 'utf8').trim().split('\n')).toEqual(['1', '1', '1', '1']);
  });

  it('starts the gate that took longest last time first (one never timed before them all), and reports in config order', async () => {
    const selections = ['quick', 'slow', 'new', 'middle'].map((name) => ({ gate: gate(['node', '-e', '0'], { name }), run: true, reason: '', files: [], partial: false }));
    const started: string[] = [];
    const results = await runGates({ selections, concurrency: 1, projectDir: dir, logDir: join(dir, 'logs'), cacheDir: join(dir, 'cache'), env: { PATH: process.env['PATH'] ?? '' }, expected: { quick: 90, slow: 2200, middle: 1400 }, onStart: (name) => started.push(name) });
    expect(started).toEqual(['new', 'slow', 'middle', 'quick']);
    expect(results.map((result) => result.name)).toEqual(['quick', 'slow', 'new', 'middle']);
  });
});
