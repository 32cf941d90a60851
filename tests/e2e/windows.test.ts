import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { vitestProject } from '../helpers/fixtures.js';
import { hookPayload, runBin } from '../helpers/run-bin.js';
import { makeRepo } from '../helpers/temp-repo.js';

// The built bin as it would start on Windows: process.platform is 'win32' before gate loads.
const preloadDir = mkdtempSync(join(tmpdir(), 'gate-win32-'));
const preload = join(preloadDir, 'as-windows.cjs');
writeFileSync(preload, "Object.defineProperty(process, 'platform', { value: 'win32' });\n");
afterAll(() => rmSync(preloadDir, { recursive: true, force: true }));

const NOTICE = 'gate: Windows is not supported yet (see docs/windows.md); the stop was allowed unchecked.';
const red = { gates: [{ name: 'red', run: ['node', '-e', 'process.exit(1)'] }] };

function asWindows(args: string[], input = '', extraEnv: Record<string, string> = {}) {
  const repo = makeRepo(vitestProject(red));
  try {
    repo.write('src/sum.ts', 'export {};\n');
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, NODE_OPTIONS: `--require ${preload}`, ...extraEnv };
    return { ...runBin(args, { cwd: repo.dir, env, input: input.replaceAll('REPO', repo.dir) }), stateWritten: existsSync(join(repo.dir, '.git', 'gate')) };
  } finally {
    repo.cleanup();
  }
}

describe('on Windows', () => {
  it('a stop is allowed, unchecked, and the human is told in one line; nothing is written', () => {
    const result = asWindows(['run'], hookPayload('Stop', 's', 'REPO'));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ systemMessage: NOTICE });
    expect(result.stateWritten).toBe(false);
  });

  it('a prompt is allowed silently, and GATE=0 keeps a stop silent', () => {
    expect(asWindows(['run'], hookPayload('UserPromptSubmit', 's', 'REPO'))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(asWindows(['run'], hookPayload('Stop', 's', 'REPO'), { GATE: '0' })).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('each harness hears it in its own protocol', () => {
    const cursor = asWindows(['run', '--harness', 'cursor'], JSON.stringify({ hook_event_name: 'stop', status: 'completed', workspace_roots: ['REPO'] }));
    expect(cursor).toMatchObject({ code: 0, stderr: `${NOTICE}\n` });
    expect(JSON.parse(cursor.stdout)).toEqual({ continue: true });
    const gemini = asWindows(['run', '--harness', 'gemini'], JSON.stringify({ hook_event_name: 'AfterAgent', session_id: 's', cwd: 'REPO' }));
    expect(JSON.parse(gemini.stdout)).toEqual({ systemMessage: NOTICE });
  });

  it.each(['init', 'check', 'status', 'doctor', 'mcp'])('gate %s exits 3 with a clear error', (command) => {
    const result = asWindows([command]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`gate: "gate ${command}" does not run on Windows yet: gate runs its gates in process groups and hook commands through /bin/sh, which need Linux or macOS (WSL counts). See docs/windows.md.\n`);
  });

  it('what needs no process groups or shell still runs', () => {
    expect(asWindows(['--version']).code).toBe(0);
    expect(asWindows(['filter', '--filter', 'generic'], 'FAIL one\n')).toMatchObject({ code: 0, stdout: expect.stringContaining('FAIL one') });
  });
});
