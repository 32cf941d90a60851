import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runAsync } from '../helpers/run-async.js';
import { GATE_BIN, hookPayload, promptStart, runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 18, point 4: while a long stop runs, `gate status` says which gates run and for how long.

let repo: TempRepo;
afterEach(() => repo?.cleanup());

// A gate that takes a while: long enough to be seen running, short enough for a test.
const slowGate = { name: 'slow', run: ['node', '-e', 'setTimeout(() => {}, 6000)'], on: ['**/*.js'] };
const quickGate = { name: 'quick', run: ['node', '-e', '0'], on: ['**/*.js'] };

describe('gate status during a stop', () => {
  it('names the running gate and how long it has run; the line is gone once the stop ends', async () => {
    repo = makeRepo({ 'gate.config.json': JSON.stringify({ concurrency: 1, gates: [quickGate, slowGate] }), 'a.js': 'module.exports = 1;\n' });
    promptStart(repo);
    repo.write('a.js', 'module.exports = 2;\n');
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir };
    const stopping = runAsync(process.execPath, [GATE_BIN, 'run'], { cwd: repo.dir, env, input: hookPayload('Stop', 'session-1', repo.dir) });
    let seen = '';
    for (let attempt = 0; attempt < 50 && !/slow \(running \d+s\)/.test(seen); attempt++) {
      await sleep(200);
      seen = runBin(['status'], { cwd: repo.dir, env }).stdout;
    }
    expect(seen).toMatch(/^running: {3}a stop of session session-1, for \d+s: quick \(passed in \d+s\), slow \(running \d+s\)$/m);
    const json = JSON.parse(runBin(['status', '--json'], { cwd: repo.dir, env }).stdout) as { runningStops: Array<{ session: string; gates: Array<{ name: string; endedAt?: number }> }> };
    expect(json.runningStops[0]?.gates.map((gate) => [gate.name, gate.endedAt === undefined])).toEqual([
      ['quick', false],
      ['slow', true],
    ]);
    const done = await stopping;
    expect(done.code).toBe(0);
    expect(runBin(['status'], { cwd: repo.dir, env }).stdout).not.toContain('running:');
  });
});
