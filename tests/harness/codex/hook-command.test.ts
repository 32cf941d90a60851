// The command init writes for Codex, run the way Codex 0.171 runs a hook: `/bin/bash -c COMMAND` in
// its session directory (measured: bash even with SHELL=/bin/sh; no login shell; no variable naming
// the project). A stand-in gate bin reports where it was found and with which arguments.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installer } from '../../../src/harness/install/codex.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fakeGate(projectDir: string): void {
  const bin = join(projectDir, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'gate'), '#!/bin/sh\nprintf "%s\\n" "$0" "$@"\n');
  chmodSync(join(bin, 'gate'), 0o755);
}

function runHook(cwd: string): { status: number | null; lines: string[] } {
  const command = installer.command({ mode: 'local', relativePath: 'node_modules/.bin/gate', program: undefined });
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const result = spawnSync('/bin/bash', ['-c', command], { cwd, env, encoding: 'utf8' });
  return { status: result.status, lines: result.stdout.split('\n').filter((line) => line !== '') };
}

describe('the hook command init writes for Codex', () => {
  it('finds the local install from any directory of a repository whose path has spaces, quotes and a dollar sign', () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'codex hook ')));
    made.push(base);
    const repo = join(base, 'a "b" $c');
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    fakeGate(repo);
    for (const cwd of [repo, join(repo, 'src', 'deep')]) {
      expect(runHook(cwd)).toEqual({ status: 0, lines: [join(repo, 'node_modules', '.bin', 'gate'), 'run', '--harness', 'codex'] });
    }
  });

  it('outside git, finds it in the directory Codex runs the hook in', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'codex hook ')));
    made.push(dir);
    fakeGate(dir);
    expect(runHook(dir)).toEqual({ status: 0, lines: [join(dir, 'node_modules', '.bin', 'gate'), 'run', '--harness', 'codex'] });
  });
});
