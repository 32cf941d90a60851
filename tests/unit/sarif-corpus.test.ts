import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { FILTER_IDS } from '../../src/filters/filter-ids.js';
import { gateFailures } from '../../src/report/gate-failures.js';
import { toSarif } from '../../src/report/sarif.js';
import type { GateResult } from '../../src/runner/gate-result.js';

// Issue 41: gate's SARIF validates against the published SARIF 2.1.0 schema (the final one,
// "2.1.0-rtm.5", as schemastore serves it; the npm package of Microsoft's SARIF matchers ships it)
// for every filter's failures, read from the real captured outputs the filter tests use.
const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
// The schema's BCP 47 pattern is not a valid Unicode regular expression: read it as the schema's authors did.
// Both are CommonJS modules: their class and plugin are the `default` of what is imported.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
ajvFormats.default(ajv);
const validate = ajv.compile(schema);

const OUTPUTS = new URL('../fixtures/outputs/', import.meta.url);
const REPO = '/work/repo';

/** Every capture, with the filter it is read by: its folder's (formatters: the generic filter, which knows them). */
function captures(): Array<{ filter: string; path: string }> {
  const found = readdirSync(OUTPUTS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) =>
      readdirSync(new URL(`${dir.name}/`, OUTPUTS))
        .filter((name) => name.endsWith('.txt'))
        .map((name) => ({ filter: FILTER_IDS.includes(dir.name) ? dir.name : 'generic', path: `${dir.name}/${name}` })),
    );
  return [...found, { filter: 'golangci-lint', path: '../golangci/run-text.txt' }];
}

/** Takes about half the failures for pre-existing, so that both baseline states are validated. */
class HalfKnown extends Set<string> {
  override has(id: string): boolean {
    return id.length % 2 === 0;
  }
}

function failedGate(filter: string, output: string): GateResult {
  return { name: 'gate', status: 'failed', command: `${filter} run`, exitCode: 1, signal: undefined, output, filter, durationMs: 1200, logPath: '/tmp/gate.log', timeoutSeconds: 60 };
}

describe('SARIF from every filter of the corpus', () => {
  const all = captures();

  it('reads a capture of every filter', () => {
    const filters = new Set(all.map((capture) => capture.filter));
    for (const id of FILTER_IDS) expect(filters, id).toContain(id);
  });

  it('validates against the SARIF 2.1.0 schema, one result per failure (or one for the gate), each located where the filter named a file', () => {
    let located = 0;
    const states = new Set<string>();
    for (const { filter, path } of all) {
      const raw = readFileSync(new URL(path, OUTPUTS), 'utf8');
      const gates = gateFailures([failedGate(filter, raw)], { repoRoot: REPO, cwdOf: () => join(REPO, 'pkg'), knownOf: () => new HalfKnown() });
      const sarif = toSarif(gates, { findings: [{ path: 'src/a.test.ts', line: 3, kind: 'skip', detail: 'adds it.skip(' }], blocking: true }, '0.1.0') as {
        runs: Array<{ tool: { driver: { name: string } }; results: Array<{ ruleId: string; baselineState: string; locations?: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }> }> }>;
      };
      const valid = validate(sarif);
      expect(valid, `${path}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
      const [run, tamper] = sarif.runs;
      const failures = gates[0]?.failures ?? [];
      expect(run?.results.length, path).toBe(Math.max(1, failures.length));
      expect(run?.tool.driver.name, path).toBe(filter);
      for (const [index, failure] of failures.entries()) {
        const location = run?.results[index]?.locations?.[0]?.physicalLocation;
        states.add(run?.results[index]?.baselineState ?? '');
        if (failure.path === undefined) {
          expect(location, `${path}: ${failure.id}`).toBeUndefined();
          continue;
        }
        located++;
        expect(decodeURIComponent(location?.artifactLocation.uri ?? ''), path).toBe(failure.path);
        if (failure.line !== undefined) expect(location?.region?.startLine, path).toBe(failure.line);
      }
      expect(tamper?.results[0]?.ruleId).toBe('tamper/skip');
    }
    // Most captures name their files: the locations are really there, not only allowed.
    expect(located).toBeGreaterThan(200);
    expect([...states].sort()).toEqual(['new', 'unchanged']);
  });

  it('rejects what the schema forbids (the check is real)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'a' }, baselineState: 'old' }] }] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'a' }, locations: [{ physicalLocation: { region: { startLine: 0 } } }] }] }] })).toBe(false);
  });
});
