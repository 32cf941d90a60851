import { describe, expect, it } from 'vitest';
import { checkScriptsOf } from '../../src/tamper/check-scripts.js';
import { compareGateConfigs } from '../../src/tamper/config-meaning.js';
import { parseDiff } from '../../src/tamper/parse-diff.js';
import { rebuildBaseline } from '../../src/tamper/rebuild-baseline.js';
import { scanChanges } from '../../src/tamper/scan-changes.js';
import { describeScriptChange } from '../../src/tamper/script-change.js';
import type { FileChange } from '../../src/tamper/tamper-finding.js';

// Issue 38, point 12: a reformatted gate.config.json is no finding; a check script a gate runs made `exit 0` is.

const CONFIG = { tamper: 'block', gates: [{ name: 'test', run: ['sh', 'check.sh'], on: ['**/*.sh'] }, { name: 'lint', run: 'eslint .' }] };
const PRETTY = `${JSON.stringify(CONFIG, null, 2)}\n`;
// Keys reordered, four-space indentation, CRLF line endings.
const REFORMATTED = `${JSON.stringify({ gates: [{ on: ['**/*.sh'], run: ['sh', 'check.sh'], name: 'test' }, { run: 'eslint .', name: 'lint' }], tamper: 'block' }, null, 4).replace(/\n/g, '\r\n')}\r\n`;

/** Every line of the file replaced, as `git diff -U0` shows a reformat. */
function rewritten(path: string, before: string, after: string): FileChange {
  const added = after.split('\n').map((text, index) => ({ line: index + 1, text: text.replace(/\r$/, '') }));
  const removed = before.split('\n');
  const baseline = rebuildBaseline(after, added, removed, removed.map(() => 1));
  return { path, added, removed, deleted: false, created: false, baselineKnown: true, current: after, baseline };
}

describe('compareGateConfigs', () => {
  it('finds a reformat (key order, CRLF, indentation) the same config', () => {
    expect(compareGateConfigs(PRETTY, REFORMATTED)).toEqual({ same: true });
  });

  it('says what a real change does, whatever the formatting', () => {
    const weaker = { maxBlocks: 9, tamper: 'warn', gates: [{ name: 'test', run: ['sh', 'check.sh'], on: ['src/**'] }] };
    expect(compareGateConfigs(PRETTY, JSON.stringify(weaker))).toEqual({
      same: false,
      parts: ['removes the gate "lint"', 'sets maxBlocks to 9', 'sets tamper to "warn"', 'changes which files a gate runs for'],
    });
    const command = { ...CONFIG, gates: [CONFIG.gates[0], { name: 'lint', run: 'eslint . --max-warnings 99' }] };
    expect(compareGateConfigs(PRETTY, JSON.stringify(command))).toEqual({ same: false, parts: ['changes a gate command'] });
    expect(compareGateConfigs(PRETTY, JSON.stringify({ ...CONFIG, budget: 600 }))).toEqual({ same: false, parts: [] });
    expect(compareGateConfigs(PRETTY, '{ "gates": [')).toBeUndefined();
  });

  it('finds a timeout made to count for less: "block" to "once" or unset (the default), anything to "allow"; not the other way', () => {
    const strict = JSON.stringify({ ...CONFIG, onTimeout: 'block' });
    expect(compareGateConfigs(strict, PRETTY)).toEqual({ same: false, parts: ['sets onTimeout to "once"'] });
    expect(compareGateConfigs(strict, JSON.stringify({ ...CONFIG, onTimeout: 'once' }))).toEqual({ same: false, parts: ['sets onTimeout to "once"'] });
    expect(compareGateConfigs(PRETTY, JSON.stringify({ ...CONFIG, onTimeout: 'allow' }))).toEqual({ same: false, parts: ['sets onTimeout to "allow"'] });
    expect(compareGateConfigs(PRETTY, strict)).toEqual({ same: false, parts: [] });
    expect(compareGateConfigs(JSON.stringify({ ...CONFIG, onTimeout: 'allow' }), PRETTY)).toEqual({ same: false, parts: [] });
  });

  it('leaves a reformatted gate.config.json out of the tamper findings, and still names an edit', () => {
    expect(scanChanges([rewritten('gate.config.json', PRETTY, REFORMATTED)])).toEqual([]);
    const raised = rewritten('gate.config.json', PRETTY, REFORMATTED.replace('"tamper": "block"', '"tamper": "off"'));
    expect(scanChanges([raised]).map((finding) => finding.detail)).toEqual(['changes gate.config.json: sets tamper to "off"']);
  });
});

describe('rebuildBaseline', () => {
  it("puts a -U0 diff's removed lines back where they stood", () => {
    const before = 'a\nb\nc\nd\ne\n';
    const after = 'a\nB\nc\ne\nf\n';
    const diff = [
      'diff --git a/x.json b/x.json',
      '--- a/x.json',
      '+++ b/x.json',
      '@@ -2 +2 @@',
      '-b',
      '+B',
      '@@ -4 +3,0 @@',
      '-d',
      '@@ -5,0 +5 @@',
      '+f',
      '',
    ].join('\n');
    const [file] = parseDiff(diff);
    expect(file?.removedBefore).toEqual([2, 4]);
    expect(file && rebuildBaseline(after, file.added, file.removed, file.removedBefore)).toBe(before);
  });
});

describe('check scripts a gate runs', () => {
  it('are found in the gate commands, relative to the repository root', () => {
    const scripts = checkScriptsOf(
      [
        { name: 'check', run: ['sh', 'check.sh'], cwd: '/repo' },
        { name: 'lint', run: 'bash -euo pipefail scripts/check', cwd: '/repo/app' },
        { name: 'own', run: './scripts/test --all', cwd: '/repo' },
        { name: 'inline', run: ['bash', '-c', 'ruff check .'], cwd: '/repo' },
        { name: 'tool', run: 'ruff check .', cwd: '/repo' },
        { name: 'outside', run: ['sh', '../other/check.sh'], cwd: '/repo' },
      ],
      '/repo',
    );
    expect([...scripts]).toEqual([
      ['check.sh', 'check'],
      ['app/scripts/check', 'lint'],
      ['scripts/test', 'own'],
    ]);
  });

  const script = (before: string[], after: string[], added: number[]): FileChange => ({
    path: 'scripts/check',
    added: added.map((line) => ({ line, text: after[line - 1] ?? '' })),
    removed: before.filter((line) => !after.includes(line)),
    deleted: false,
    created: false,
    baselineKnown: true,
    current: `${after.join('\n')}\n`,
  });
  const detailsOf = (change: FileChange) => describeScriptChange(change, 'lint').map((finding) => `${finding.line ?? '-'}: ${finding.detail}`);
  const CHECK = ['#!/bin/sh', 'ruff check .', 'ruff format --check .'];

  it('flags an exit 0 before the checks, a body turned into exit 0, and checks commented out or deleted', () => {
    expect(detailsOf(script(CHECK, ['#!/bin/sh', 'exit 0', 'ruff check .', 'ruff format --check .'], [2]))).toEqual(['2: adds "exit 0" before its checks (the gate "lint" runs this script)']);
    expect(detailsOf(script(CHECK, ['#!/bin/sh', 'exit 0'], [2]))).toEqual([
      '2: ends it with "exit 0": it succeeds whatever its checks found (the gate "lint" runs this script)',
      '-: deletes "ruff check ." (the gate "lint" runs this script)',
      '-: deletes "ruff format --check ." (the gate "lint" runs this script)',
    ]);
    expect(detailsOf(script(CHECK, ['#!/bin/sh', 'ruff check .', '# ruff format --check .'], [3]))).toEqual(['-: comments out "ruff format --check ." (the gate "lint" runs this script)']);
    expect(detailsOf(script(CHECK, ['#!/bin/sh', 'ruff check .'], []))).toEqual(['-: deletes "ruff format --check ." (the gate "lint" runs this script)']);
  });

  it('leaves a check changed into another check, and an exit 0 after `set -e`, alone', () => {
    expect(detailsOf(script(CHECK, ['#!/bin/sh', 'ruff check src tests', 'ruff format --check .'], [2]))).toEqual([]);
    expect(detailsOf(script(['#!/bin/sh', 'set -eu', 'ruff check .'], ['#!/bin/sh', 'set -eu', 'ruff check .', 'exit 0'], [4]))).toEqual([]);
  });
});
