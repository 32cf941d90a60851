import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { annotationLines, escapeData, escapeProperty } from '../../src/report/annotations.js';
import { toCodeQuality } from '../../src/report/code-quality.js';
import { gateFailures, type GateFailures } from '../../src/report/gate-failures.js';
import { toJunit } from '../../src/report/junit.js';
import { toSarif } from '../../src/report/sarif.js';
import type { GateResult } from '../../src/runner/gate-result.js';
import { failureMemoryPath, rememberFailures } from '../../src/verdict/failure-memory.js';
import { failingOn } from '../../src/verdict/known-failures.js';

// Issue 41: the report files and annotation lines, from gate's results (pure functions).
const TSC_OUTPUT = [
  "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
  "src/b.ts(9,1): error TS2304: Cannot find name 'x'.",
  'Found 2 errors in 2 files.',
].join('\n');

function result(name: string, status: GateResult['status'], filter: string, output = '', extra: Partial<GateResult> = {}): GateResult {
  return { name, status, command: `run ${name}`, exitCode: status === 'failed' ? 1 : 0, signal: undefined, output, filter, durationMs: 1500, logPath: `/r/.git/gate/logs/${name}.log`, timeoutSeconds: 60, ...extra };
}

/** tsc in packages/app of the repository /r, whose TS2304 failed on the change's starting state too. */
function typecheck(): GateFailures[] {
  const known = new Set(["src/b.ts TS2304: Cannot find name 'x'."]);
  return gateFailures([result('types', 'failed', 'tsc', TSC_OUTPUT)], { repoRoot: '/r', cwdOf: () => '/r/packages/app', knownOf: () => known });
}

describe('gateFailures', () => {
  it('names each file from the repository root, and marks what failed on the starting state', () => {
    expect(typecheck()[0]?.failures).toEqual([
      expect.objectContaining({ rule: 'TS2322', path: 'packages/app/src/a.ts', line: 3, preExisting: false }),
      expect.objectContaining({ rule: 'TS2304', path: 'packages/app/src/b.ts', line: 9, preExisting: true }),
    ]);
  });
});

describe('SARIF', () => {
  it('one run per gate named after its tool, each failure with its rule, place and baseline state', () => {
    const sarif = toSarif([...typecheck(), ...gateFailures([result('lint', 'passed', 'eslint'), result('slow', 'timed-out', 'vitest', '', { detail: 'x' })], { repoRoot: '/r', cwdOf: () => '/r', knownOf: () => new Set() })], undefined, '1.2.3') as {
      runs: Array<{ tool: { driver: { name: string; rules: Array<{ id: string }> } }; automationDetails: { id: string }; results: Array<Record<string, unknown>> }>;
    };
    expect(sarif.runs.map((run) => [run.tool.driver.name, run.automationDetails.id, run.results.length])).toEqual([
      ['tsc', 'stopgate/types/', 2],
      ['eslint', 'stopgate/lint/', 0],
      ['vitest', 'stopgate/slow/', 1],
    ]);
    const [first, second] = sarif.runs[0]?.results ?? [];
    expect(first).toMatchObject({
      ruleId: 'TS2322',
      level: 'error',
      message: { text: "Type 'string' is not assignable to type 'number'." },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'packages/app/src/a.ts', uriBaseId: '%SRCROOT%' }, region: { startLine: 3 } } }],
      baselineState: 'new',
    });
    expect(second).toMatchObject({ ruleId: 'TS2304', baselineState: 'unchanged' });
    expect(sarif.runs[0]?.tool.driver.rules.map((rule) => rule.id)).toEqual(['TS2322', 'TS2304']);
    expect(sarif.runs[2]?.results[0]).toMatchObject({ ruleId: 'gate-timed-out', baselineState: 'new' });
  });

  it('tamper findings are a run of their own: errors when they block, warnings when they only warn', () => {
    const findings = [{ path: 'src/a b.test.ts', line: 4, kind: 'skip' as const, detail: 'adds it.skip(' }];
    const blocking = toSarif([], { findings, blocking: true }, '1') as { runs: Array<{ tool: { driver: { name: string } }; results: Array<Record<string, unknown>> }> };
    expect(blocking.runs[0]?.tool.driver.name).toBe('stopgate tamper check');
    expect(blocking.runs[0]?.results[0]).toMatchObject({ ruleId: 'tamper/skip', level: 'error', locations: [{ physicalLocation: { artifactLocation: { uri: 'src/a%20b.test.ts' } } }] });
    const warning = toSarif([], { findings, blocking: false }, '1') as { runs: Array<{ results: Array<Record<string, unknown>> }> };
    expect(warning.runs[0]?.results[0]).toMatchObject({ level: 'warning' });
  });
});

describe('GitHub annotations', () => {
  it("escapes the message's % and line breaks, and a property's , and : too", () => {
    expect(escapeData('50% done\r\nnext: a,b')).toBe('50%25 done%0D%0Anext: a,b');
    expect(escapeProperty('a,b: 50%\n')).toBe('a%2Cb%3A 50%25%0A');
  });

  it('an error line for each new failure only, one for a gate that named none, and the tamper findings', () => {
    const vitest = gateFailures(
      [result('test', 'failed', 'generic', 'Error: boom\nsomething, went: wrong')],
      { repoRoot: '/r', cwdOf: () => '/r', knownOf: () => new Set() },
    );
    const findings = [{ path: 'src/x,y.ts', line: 2, kind: 'only' as const, detail: 'adds it.only(\n' }];
    expect(annotationLines([...typecheck(), ...vitest], { findings, blocking: false })).toEqual([
      "::error file=packages/app/src/a.ts,line=3,title=types (TS2322)::Type 'string' is not assignable to type 'number'.",
      '::error title=test::test: failed (exit 1) — run test',
      '::warning file=src/x%2Cy.ts,line=2,title=tamper check::adds it.only(%0A',
    ]);
  });

  it('stops at 50 lines with a notice of how many more', () => {
    const findings = Array.from({ length: 60 }, (_, index) => ({ path: `f${index}.ts`, kind: 'skip' as const, detail: 'adds it.skip(' }));
    const lines = annotationLines([], { findings, blocking: true });
    expect(lines).toHaveLength(50);
    expect(lines.at(-1)).toBe('::notice title=gate::11 more findings: see the job summary');
  });
});

describe('JUnit XML', () => {
  it('a suite per gate, a failing case per failure, and a gate case for the rest, escaped for XML', () => {
    const gates = [
      ...typecheck(),
      ...gateFailures(
        [result('ok', 'passed', 'vitest'), result('none', 'skipped', 'vitest', '', { detail: 'no file' }), result('raw', 'failed', 'generic', '\x1b[31mboom <&> "q"\x1b[0m')],
        { repoRoot: '/r', cwdOf: () => '/r', knownOf: () => new Set() },
      ),
    ];
    const xml = toJunit(gates);
    expect(xml).toContain('<testsuites name="gate" tests="5" failures="3" errors="0" skipped="1" time="6.000">');
    expect(xml).toContain(
      [
        '    <testcase classname="types.tsc" name="src/a.ts TS2322: Type \'string\' is not assignable to type \'number\'." file="packages/app/src/a.ts" line="3">',
        '      <failure message="Type \'string\' is not assignable to type \'number\'." type="TS2322">Type \'string\' is not assignable to type \'number\'.</failure>',
        '    </testcase>',
      ].join('\n'),
    );
    expect(xml).toContain('failed before the change too</failure>');
    expect(xml).toContain('<testcase classname="ok.vitest" name="ok"/>');
    expect(xml).toContain('<skipped message="skipped (no file)"/>');
    expect(xml).toContain('boom &lt;&amp;&gt; "q"</failure>');
    expect(xml).not.toContain('\x1b');
  });

  it('leaves out the control characters XML 1.0 cannot hold, whatever a tool printed', () => {
    const [gate] = gateFailures([result('t', 'failed', 'tsc', TSC_OUTPUT)], { repoRoot: '/r', cwdOf: () => '/r', knownOf: () => new Set() });
    const failure = gate?.failures[0];
    if (!gate || !failure) throw new Error('no failure');
    const xml = toJunit([{ ...gate, failures: [{ ...failure, id: 'bell\u0007 test', message: 'esc\u001b[1m bold\u0000' }] }]);
    expect(xml).toContain('name="bell test"');
    expect(xml).toContain('<failure message="esc[1m bold" type="TS2322">esc[1m bold</failure>');
  });

  it('a timeout is an error', () => {
    const [gate] = gateFailures([result('slow', 'timed-out', 'vitest')], { repoRoot: '/r', cwdOf: () => '/r', knownOf: () => new Set() });
    expect(toJunit(gate ? [gate] : [])).toContain('errors="1"');
  });
});

describe('GitLab Code Quality', () => {
  it('an issue per failure that names a file, with a fingerprint that ignores the line', () => {
    const issues = toCodeQuality(typecheck(), { findings: [{ path: 'src/t.ts', kind: 'skip', detail: 'adds it.skip(' }], blocking: true });
    expect(issues).toEqual([
      expect.objectContaining({ check_name: 'types/TS2322', severity: 'major', location: { path: 'packages/app/src/a.ts', lines: { begin: 3 } }, fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/) }),
      expect.objectContaining({ check_name: 'types/TS2304', location: { path: 'packages/app/src/b.ts', lines: { begin: 9 } } }),
      expect.objectContaining({ check_name: 'tamper/skip', severity: 'critical', location: { path: 'src/t.ts', lines: { begin: 1 } } }),
    ]);
    const moved = gateFailures([result('types', 'failed', 'tsc', TSC_OUTPUT.replace('(3,7)', '(30,7)'))], { repoRoot: '/r', cwdOf: () => '/r/packages/app', knownOf: () => new Set() });
    expect((toCodeQuality(moved, undefined)[0] as { fingerprint: string }).fingerprint).toBe((issues[0] as { fingerprint: string }).fingerprint);
  });
});

describe('failingOn: what a gate showed on a state, as gate remembers it', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the ids remembered for that state and gate, none for another, none without a state', () => {
    dir = mkdtempSync(join(tmpdir(), 'gate-known-'));
    rememberFailures(failureMemoryPath(dir), 'base-key', 'types', ['a', 'b']);
    expect([...failingOn(dir, 'base-key')('types')]).toEqual(['a', 'b']);
    expect([...failingOn(dir, 'base-key')('lint')]).toEqual([]);
    expect([...failingOn(dir, 'other-key')('types')]).toEqual([]);
    expect([...failingOn(dir, undefined)('types')]).toEqual([]);
  });
});
