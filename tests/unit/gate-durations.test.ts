import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/runner/gate-result.js';
import { durationsPath, readDurations, rememberDurations } from '../../src/state/gate-durations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const result = (name: string, status: GateResult['status'], durationMs: number, cached = false): GateResult =>
  ({ name, status, durationMs, cached, command: '', exitCode: 0, signal: undefined, output: '', filter: 'generic', logPath: '', timeoutSeconds: 60 }) as GateResult;

describe("the gates' last durations (the next stop starts the longest first)", () => {
  it('keeps each gate that ran to its end, passed or failed; a cached, skipped or timed-out one keeps its last', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gate-durations-'));
    dirs.push(dir);
    const path = durationsPath(dir);
    expect(readDurations(path)).toEqual({});
    rememberDurations(path, {}, [result('test', 'passed', 1900), result('types', 'failed', 2200), result('lint', 'passed', 0, true)]);
    expect(readDurations(path)).toEqual({ test: 1900, types: 2200 });
    rememberDurations(path, readDurations(path), [result('test', 'timed-out', 60000), result('types', 'skipped', 0), result('lint', 'passed', 80)]);
    expect(readDurations(path)).toEqual({ test: 1900, types: 2200, lint: 80 });
  });
});
