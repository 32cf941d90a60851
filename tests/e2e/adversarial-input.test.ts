import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { onLinux } from '../helpers/processes.js';
import { GATE_BIN, hookPayload, runBin, stop } from '../helpers/run-bin.js';
import { runAsync } from '../helpers/run-async.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

/** A red repository whose one gate fails fast: every stop that reaches the gates blocks. */
// Red because of the turn's edit: a gate red the same way before the turn would not block (issue 37).
const RED_WHEN_BROKEN = "if (require('fs').readFileSync('src/sum.ts', 'utf8').includes('a - b')) { console.log('FAIL: still red'); process.exit(1); }";

function redRepo(): TempRepo {
  const made = makeRepo(vitestProject({ gates: [{ name: 'test', run: ['node', '-e', RED_WHEN_BROKEN] }] }));
  made.write('src/sum.ts', SUM_BROKEN);
  return made;
}

const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;
const env = (r: TempRepo, extra: Record<string, string> = {}) => ({ ...r.env, CLAUDE_PROJECT_DIR: r.dir, ...extra });

/** Peak resident memory (KB) of a command, by GNU time. */
async function peakKb(args: string[], r: TempRepo, input: string | Buffer): Promise<{ kb: number; code: number | null; stdout: string; stderr: string }> {
  const result = await runAsync('/usr/bin/time', ['-q', '-f', 'PEAK_KB=%M', process.execPath, GATE_BIN, ...args], { cwd: r.dir, env: env(r), input });
  const stderr = result.stderr.toString('utf8');
  const kb = Number(/PEAK_KB=(\d+)/.exec(stderr)?.[1]);
  return { kb, code: result.code, stdout: result.stdout.toString('utf8'), stderr: stderr.replace(/PEAK_KB=\d+\n?$/, '') };
}

describe('payloads never crash gate and never block', () => {
  it.each([
    ['random bytes', () => randomBytes(8192)],
    ['a JSON string', () => '"Stop"'],
    ['deeply nested JSON', () => '['.repeat(1_000_000) + ']'.repeat(1_000_000)],
    ['an object with the event of the wrong type', () => JSON.stringify({ hook_event_name: ['Stop'], session_id: 5 })],
    ['a NUL in the middle', () => '{"hook_event_name":"Stop"\u0000}'],
  ])('%s: allowed with a notice', (_name, make) => {
    repo = redRepo();
    const result = runBin(['run'], { cwd: repo.dir, env: env(repo), input: make() });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(systemMessage(result.stdout)).toMatch(/no valid JSON payload/);
  });

  it.skipIf(!onLinux)('a 100 MB payload: the first MiB is read, the rest drained, memory stays bounded', async () => {
    repo = redRepo();
    const huge = Buffer.alloc(100 * 1024 * 1024, 0x20);
    Buffer.from('{"hook_event_name":"Stop","session_id":"big","pad":"').copy(huge);
    const result = await peakKb(['run'], repo, huge);
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/no valid JSON payload/);
    expect(result.kb).toBeLessThan(200 * 1024);
  });

  it.skipIf(!onLinux)('stdin that never ends (/dev/zero): drained to a bound, then allowed with a notice', () => {
    repo = redRepo();
    const zero = openSync('/dev/zero', 'r');
    try {
      const result = spawnSync(process.execPath, [GATE_BIN, 'run'], { cwd: repo.dir, env: env(repo), stdio: [zero, 'pipe', 'pipe'], encoding: 'utf8', timeout: 120_000 });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(0);
      expect(systemMessage(result.stdout)).toMatch(/no valid JSON payload/);
    } finally {
      closeSync(zero);
    }
  });

  it.skipIf(!onLinux)('a non-blocking stdin that stays silent: gate waits without spinning, then allows with a notice', () => {
    repo = redRepo();
    // Python hands gate the read end of a pipe set O_NONBLOCK, keeps the write end open and writes nothing.
    const script = [
      'import fcntl, os, resource, subprocess, sys',
      'r, w = os.pipe()',
      'fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)',
      'p = subprocess.run(sys.argv[1:], stdin=r, capture_output=True, text=True, timeout=60)',
      'u = resource.getrusage(resource.RUSAGE_CHILDREN)',
      'print(p.returncode, round(u.ru_utime + u.ru_stime, 2)); print(p.stdout)',
    ].join('\n');
    const result = spawnSync('python3', ['-c', script, process.execPath, GATE_BIN, 'run'], { cwd: repo.dir, env: env(repo), encoding: 'utf8' });
    const [status, cpuSeconds, ...stdout] = result.stdout.split(/[ \n]/);
    expect(status).toBe('0');
    expect(systemMessage(stdout.join(' '))).toMatch(/no valid JSON payload/);
    // It spun 8.6 s of CPU in 10 s; waiting costs a node start (~0.1 s). Generous for a loaded machine.
    expect(Number(cpuSeconds)).toBeLessThan(1.5);
  });

  it('fields of every wrong type, with a valid event: a normal stop', () => {
    repo = redRepo();
    const input = JSON.stringify({ hook_event_name: 'Stop', session_id: { x: 1 }, cwd: 42, background_tasks: 'yes', stop_hook_active: 'true' });
    const result = runBin(['run'], { cwd: repo.dir, env: env(repo), input });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('FAIL: still red');
    expect(readdirSync(join(repo.dir, '.git', 'gate', 'sessions'))).toEqual(['no-session.json']);
  });

  it.each([
    ['a slash', 'a/b'],
    ['dot-dot', '..'],
    ['a NUL', 'x\u0000y'],
    ['10,000 characters', 'z'.repeat(10_000)],
    ['invalid UTF-8 bytes', Buffer.from([0xff, 0xfe, 0x41]).toString('latin1')],
  ])('a session_id with %s becomes a plain file name inside the state folder', (_name, id) => {
    repo = redRepo();
    const result = stop(repo, id);
    expect(result.code).toBe(2);
    const files = readdirSync(join(repo.dir, '.git', 'gate', 'sessions'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^h-[0-9a-f]{32}\.json$/);
  });

  it('CLAUDE_PROJECT_DIR and cwd pointing nowhere fall back to the process directory; outside any repo gate stays silent', () => {
    repo = redRepo();
    const nowhere = runBin(['run'], { cwd: repo.dir, env: env(repo, { CLAUDE_PROJECT_DIR: '/no/such/dir' }), input: hookPayload('Stop', 's', '/also/missing') });
    expect(nowhere.code).toBe(2);
    const outside = runBin(['run'], { cwd: repo.home, env: env(repo, { CLAUDE_PROJECT_DIR: repo.home }), input: hookPayload('Stop', 's', repo.home) });
    expect(outside).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('configs: a precise error, never a silent fallback, never a block', () => {
  it('a config edited between stops applies at the next one (the resolved config gate keeps is keyed by its bytes)', () => {
    repo = makeRepo(vitestProject({ gates: [{ name: 'test', run: ['node', '-e', 'process.exit(0)'] }] }));
    repo.write('src/sum.ts', SUM_BROKEN);
    expect(stop(repo).code).toBe(0);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'config-cache.json'))).toBe(true);
    repo.write('gate.config.json', JSON.stringify({ gates: [{ name: 'test', run: ['node', '-e', 'console.log("FAIL: now red"); process.exit(1)'] }] }));
    const red = stop(repo);
    expect(red.code).toBe(2);
    expect(red.stderr).toContain('FAIL: now red');
    repo.write('gate.config.json', JSON.stringify({ gates: [{ name: 'test', run: 'x', timeout: 0 }] }));
    const invalid = stop(repo);
    expect(invalid.code).toBe(0);
    expect(systemMessage(invalid.stdout)).toMatch(/gates\[0\]\.timeout: a timeout is a positive number of seconds, got 0/);
  });

  it.each([
    ['absurd numbers', { maxBlocks: 1e9, budget: -5, concurrency: 0, gates: [{ name: 't', run: 'x' }] }, [/maxBlocks: too big: expected number to be <=50, got 1000000000/, /budget: too small/, /concurrency: too small/]],
    ['a zero timeout', { gates: [{ name: 't', run: 'x', timeout: 0 }] }, [/gates\[0\]\.timeout: a timeout is a positive number of seconds, got 0/]],
    ['an unknown key', { gates: [{ name: 't', run: 'x', timout: 5 }] }, [/gates\[0\]\.timout: unknown key "timout"; did you mean "timeout"\?/]],
    ['a glob that would take exponential time', { gates: [{ name: 't', run: 'x', on: ['*a*a*a*a*b'] }] }, [/gates\[0\]\.on\[0\]: a glob may have at most 3 "\*" in one path segment/]],
    ['a preset that does not exist', { gates: [{ name: 't', preset: 'pytset' }] }, [/gates\[0\]\.preset: unknown preset "pytset"; did you mean "pytest"\?/]],
    ['a run of the wrong type', { gates: [{ name: 't', run: { cmd: 'x' } }] }, [/gates\[0\]\.run: expected a command string or an array of strings/]],
  ])('%s', (_name, config, expected) => {
    repo = redRepo();
    repo.write('gate.config.json', JSON.stringify(config));
    const result = stop(repo);
    expect(result.code).toBe(0);
    const message = systemMessage(result.stdout);
    for (const pattern of expected) expect(message).toMatch(pattern);
  });
});

describe('state: corrupt, misplaced or unwritable — reset or fail open, with a notice', () => {
  it('a truncated session file is reset, and the stop is judged normally', () => {
    repo = redRepo();
    mkdirSync(join(repo.dir, '.git', 'gate', 'sessions'), { recursive: true });
    writeFileSync(join(repo.dir, '.git', 'gate', 'sessions', 'session-1.json'), '{"blocks": 1, "baseli');
    repo.write('src/sum.ts', SUM_BROKEN.replace('a - b', 'a - b - 1'));
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(JSON.parse(readFileSync(join(repo.dir, '.git', 'gate', 'sessions', 'session-1.json'), 'utf8'))).toMatchObject({ blocks: 1 });
  });

  it('garbage in passed.json, verdicts.json and config-cache.json is ignored', () => {
    repo = redRepo();
    mkdirSync(join(repo.dir, '.git', 'gate'), { recursive: true });
    writeFileSync(join(repo.dir, '.git', 'gate', 'passed.json'), '\u0000\u0001garbage');
    writeFileSync(join(repo.dir, '.git', 'gate', 'verdicts.json'), '{"not": "a list"}');
    writeFileSync(join(repo.dir, '.git', 'gate', 'config-cache.json'), '[{"key": 1, "config": "none"}]');
    expect(stop(repo).code).toBe(2);
  });

  it('a folder where the session file should be: allowed, with a notice naming it', () => {
    repo = redRepo();
    mkdirSync(join(repo.dir, '.git', 'gate', 'sessions', 'session-1.json'), { recursive: true });
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/cannot write .*session-1\.json.*the stop was allowed unchecked/s);
  });

  it('a file where the state folder should be: allowed, with a notice', () => {
    repo = redRepo();
    writeFileSync(join(repo.dir, '.git', 'gate'), 'not a folder');
    const result = stop(repo);
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/cannot write .*\.git\/gate/);
  });
});

describe('leaks', () => {
  it('the report carries the tools\' output, never gate\'s environment; logs are owner-only; nothing lands outside the git dir', () => {
    repo = redRepo();
    const result = runBin(['run'], { cwd: repo.dir, env: env(repo, { API_TOKEN: 'sekrit-value-123' }), input: hookPayload('Stop', 's', repo.dir) });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('sekrit-value-123');
    const log = join(repo.dir, '.git', 'gate', 'logs', 'test.log');
    expect(readFileSync(log, 'utf8')).toContain('FAIL: still red');
    expect((statSync(log).mode & 0o077).toString(8)).toBe('0');
    expect(repo.git('status', '--porcelain', '--ignored')).toBe(' M src/sum.ts\n');
  });
});
