import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStopRecords } from '../../src/state/read-stop-log.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

// Issue 25, point 7: a stop killed mid-way is recorded before gate exits, whether or not the
// runner's own handler (which kills the gates and exits) is installed yet.

let base: string;
let bundle: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'gate-record-kill-'));
  bundle = join(base, 'record-kill.mjs');
  buildSync({ entryPoints: [join(PROJECT_ROOT, 'src/state/record-kill.ts')], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A stop half-way: `lint` done, `test` running; says "ready" once it listens, then waits to be killed. */
const script = (stateDir: string, otherHandler: boolean) => `
  import { recordIfKilled } from ${JSON.stringify(bundle)};
  const trace = { started: Date.now() - 8000, harness: 'claude', stateDir: ${JSON.stringify(stateDir)}, session: 's', event: 'stop', path: 'fast', reason: '', changed: { count: 1, sample: ['a.js'] }, gates: [], reportChars: 0, blocks: 0 };
  const gates = [{ name: 'lint', startedAt: 1, endedAt: 61, status: 'passed' }, { name: 'test', startedAt: 61 }];
  ${otherHandler ? "process.once('SIGTERM', () => { process.stdout.write('runner handler ran'); process.exit(99); });" : ''}
  recordIfKilled(trace, () => gates, () => process.stdout.write('cleaned up; '));
  setInterval(() => {}, 1000);
  process.stdout.write('ready; ');`;

function killWhenReady(source: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout === 'ready; ') child.kill('SIGTERM');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('recordIfKilled', () => {
  it.each([
    ['with no other handler, it exits itself', false, 143, 'ready; cleaned up; '],
    ['before the runner handler, which then exits', true, 99, 'ready; cleaned up; runner handler ran'],
  ])('records the killed stop %s', async (_, otherHandler, code, stdout) => {
    const stateDir = join(base, `state-${code}`);
    expect(await killWhenReady(script(stateDir, otherHandler))).toEqual({ code, stdout });
    const [record] = readStopRecords(stateDir);
    expect(record).toMatchObject({
      outcome: 'error',
      path: 'checked',
      reason: 'killed by SIGTERM',
      killed: { signal: 'SIGTERM', running: ['test'] },
      gates: [{ name: 'lint', status: 'passed', durationMs: 60 }],
    });
    expect(record?.durationMs).toBeGreaterThanOrEqual(8000);
  });
});
