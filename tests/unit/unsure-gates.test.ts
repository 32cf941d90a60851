import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/runner/gate-result.js';
import { unsureGates } from '../../src/stop/unsure-gates.js';

const result = (name: string, status: GateResult['status'], more: Partial<GateResult> = {}): GateResult => ({ name, status, command: '', exitCode: 0, signal: undefined, output: '', filter: 'generic', durationMs: 1, logPath: '', timeoutSeconds: 1, ...more });

describe('unsureGates: the gates a pass does not prove passing in full', () => {
  const names = ['test', 'types', 'lint'];
  it('from a tree nothing is known of: all but the full runs that passed', () => {
    expect(unsureGates(names, [result('test', 'passed', { narrowed: true }), result('types', 'passed')], undefined)).toEqual(['test', 'lint']);
    expect(unsureGates(names, [result('test', 'passed', { cached: true }), result('types', 'passed'), result('lint', 'passed')], undefined)).toEqual(['test']);
  });
  it('continuing from a tree they passed in full on: a narrowed pass, a skip or no run holds; what was unsure stays so', () => {
    expect(unsureGates(names, [result('test', 'passed', { narrowed: true }), result('types', 'skipped')], [])).toEqual([]);
    expect(unsureGates(names, [result('test', 'passed', { narrowed: true })], ['lint'])).toEqual(['lint']);
    expect(unsureGates(names, [result('test', 'passed', { narrowed: true }), result('lint', 'passed')], ['lint'])).toEqual([]);
  });
});
