import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runAsync } from '../helpers/run-async.js';
import { GATE_BIN, hookPayload, promptStart, runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 18, point 4: while a long stop runs, `gate status` says which gates run and for how long.

let repo: TempRepo;
afterEach(() => repo?.cleanup());

// A gate that runs until the test has seen it running (a file appears in the home dir; at most 60 s),
// not for a fixed time: it waited out 6 s after the checks.
const slowGate = (release: string) => ({
  name: 'slow',
  run: ['node', '-e', `const fs = require('fs'); const t = setInterval(() => fs.existsSync(${JSON.stringify(release)}) && clearInterval(t), 50); setTimeout(() => clearInterval(t), 60000).unref();`],
  on: ['**/*.js'],
});
const quickGate = { name: 'quick', run: ['node', '-e', '0'], on: ['**/*.js'] };

describe('gate status during a stop', () => {
  it('names the running gate and how long it has run; the line is gone once the stop ends', async () => {
    repo = makeRepo({ 'a.js': 'module.exports = 1;\n' });
    const release = join(repo.home, 'release');
    repo.write('gate.config.json', JSON.stringify({ concurrency: 1, gates: [quickGate, slowGate(release)] }));
    repo.commit('gate config');
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
    writeFileSync(release, '');
    const done = await stopping;
    expect(done.code).toBe(0);
    expect(runBin(['status'], { cwd: repo.dir, env }).stdout).not.toContain('running:');
  });
});
